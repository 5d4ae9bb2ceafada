import { isDeepStrictEqual } from 'node:util';
import type { ServerEntry } from '@blitz/core';
import type { ServerMapping } from '../client-spec.js';
import { fingerprint, isBlitzEntry } from './fingerprint.js';

/** One server in a client's file: as written, and as Blitz reads it. */
export interface ClientServer {
  readonly name: string;
  readonly raw: unknown;
  readonly mapping: ServerMapping;
}

export interface ConnectPlan {
  /** What happens to the `blitz` entry. */
  readonly blitz: 'add' | 'update' | 'same';
  /** Servers Blitz now runs, removed from the client (`as`: their name in Blitz). */
  readonly remove: readonly { readonly name: string; readonly as: string }[];
  /** Servers left in the client, and why. */
  readonly keep: readonly { readonly name: string; readonly why: string }[];
}

export const BLITZ_ENTRY = 'blitz';

/**
 * Decides what `blitz clients connect` changes in one client: the `blitz` entry is added (or
 * brought up to date), and each server Blitz has (same command line and env, or same URL
 * and headers) is removed so the client stops starting its own copy. Everything else stays.
 */
export function planConnect(servers: readonly ClientServer[], blitzServers: readonly ServerEntry[], blitzNative: unknown): ConnectPlan {
  const inBlitz = new Map(blitzServers.map((e) => [fingerprint(e), e.name]));
  const current = servers.find((s) => s.name === BLITZ_ENTRY);
  const blitz = current === undefined ? 'add' : isDeepStrictEqual(current.raw, blitzNative) ? 'same' : 'update';
  const remove: { name: string; as: string }[] = [];
  const keep: { name: string; why: string }[] = [];
  for (const server of servers) {
    if (server.name === BLITZ_ENTRY) continue;
    if (server.mapping.kind === 'skipped') {
      keep.push({ name: server.name, why: `Blitz cannot run it: ${server.mapping.reason}` });
      continue;
    }
    if (isBlitzEntry(server.mapping.entry)) {
      keep.push({ name: server.name, why: 'it runs blitz connect itself' });
      continue;
    }
    const entry = server.mapping.entry;
    const as = inBlitz.get(fingerprint(entry));
    if (as !== undefined) remove.push({ name: server.name, as });
    else if (blitzServers.some((e) => e.name === entry.name))
      keep.push({ name: server.name, why: `Blitz has a different server named ${entry.name}; rename one of them, then import it` });
    else keep.push({ name: server.name, why: 'not in Blitz yet (blitz clients import adds it)' });
  }
  return { blitz, remove, keep };
}
