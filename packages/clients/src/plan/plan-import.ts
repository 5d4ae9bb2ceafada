import type { ServerEntry } from '@blitz/core';
import type { ClientId } from '../client-spec.js';
import { fingerprint } from './fingerprint.js';

/** A server found in a client's file, in Blitz's fields (its Blitz name in `entry.name`). */
export interface FoundServer {
  readonly client: ClientId;
  readonly file: string;
  /** The name in the client's file. */
  readonly name: string;
  readonly entry: ServerEntry;
  readonly warnings: readonly string[];
}

/** Where a definition Blitz already has came from (settings.toml) or was found first. */
export type Definition = { readonly from: 'blitz'; readonly entry: ServerEntry } | { readonly from: 'client'; readonly found: FoundServer };

export interface ImportPlan {
  /** New to Blitz: added in this order. */
  readonly add: readonly FoundServer[];
  /** Already in Blitz, under the name given. */
  readonly present: readonly { readonly found: FoundServer; readonly as: string }[];
  /** The same server found again in another client (or twice in one): imported once. */
  readonly duplicates: readonly { readonly found: FoundServer; readonly sameAs: FoundServer }[];
  /** One name, two different servers: the first is kept, nothing is guessed for the other. */
  readonly conflicts: readonly { readonly found: FoundServer; readonly kept: Definition }[];
}

/**
 * Decides what `blitz clients import` adds. The same server (same command line and env, or
 * same URL and headers) is imported once under its first name; a second, different server
 * with a name already taken — in Blitz or earlier in this import — is a conflict.
 */
export function planImport(found: readonly FoundServer[], existing: readonly ServerEntry[]): ImportPlan {
  const add: FoundServer[] = [];
  const present: { found: FoundServer; as: string }[] = [];
  const duplicates: { found: FoundServer; sameAs: FoundServer }[] = [];
  const conflicts: { found: FoundServer; kept: Definition }[] = [];
  const inBlitz = new Map(existing.map((e) => [fingerprint(e), e]));
  const byName = new Map<string, Definition>(existing.map((e) => [e.name, { from: 'blitz', entry: e }]));
  const added = new Map<string, FoundServer>();

  for (const server of found) {
    const print = fingerprint(server.entry);
    const known = inBlitz.get(print);
    if (known !== undefined) {
      present.push({ found: server, as: known.name });
      continue;
    }
    const first = added.get(print);
    if (first !== undefined) {
      duplicates.push({ found: server, sameAs: first });
      continue;
    }
    const taken = byName.get(server.entry.name);
    if (taken !== undefined) {
      conflicts.push({ found: server, kept: taken });
      continue;
    }
    add.push(server);
    added.set(print, server);
    byName.set(server.entry.name, { from: 'client', found: server });
  }
  return { add, present, duplicates, conflicts };
}
