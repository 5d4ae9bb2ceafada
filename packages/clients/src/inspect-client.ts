import path from 'node:path';
import { BlitzError } from '@blitz/core';
import type { ClientSpec } from './client-spec.js';
import { parseClientText, serversOf } from './files/client-document.js';
import { isDirectory, readClientFile } from './files/read-client-file.js';
import { isBlitzEntry } from './plan/fingerprint.js';
import type { ClientServer } from './plan/plan-connect.js';
import type { Where } from './where.js';

/** One client's file as found on this machine. */
export interface ClientState {
  readonly spec: ClientSpec;
  readonly file: string;
  readonly exists: boolean;
  /** The file exists, or the client's own folder does. */
  readonly installed: boolean;
  readonly text: string;
  readonly servers: readonly ClientServer[];
  /** Some entry runs `blitz connect`. */
  readonly pointsAtBlitz: boolean;
  /** Why the file could not be read or parsed; nothing is changed in such a file. */
  readonly error?: string;
}

/** The user-scope file this client uses here: the first that exists, else the first it would create. */
export async function userFileOf(spec: ClientSpec, where: Where): Promise<string> {
  const candidates = spec.userFiles(where);
  for (const file of candidates) {
    if ((await readClientFile(file).catch(() => ({ exists: true }))).exists) return file;
  }
  return candidates[0]!;
}

export async function inspectClient(spec: ClientSpec, where: Where): Promise<ClientState> {
  const file = await userFileOf(spec, where);
  const marker = spec.installedMarker?.(where) ?? path.dirname(file);
  return inspectFile(spec, file, await isDirectory(marker));
}

/** Reads and maps one file of a client; errors are kept in the state, not thrown. */
export async function inspectFile(spec: ClientSpec, file: string, installed = false): Promise<ClientState> {
  const base = { spec, file, servers: [], pointsAtBlitz: false, text: '' };
  try {
    const read = await readClientFile(file);
    if (!read.exists) return { ...base, exists: false, installed };
    const servers = serversOf(spec, parseClientText(spec, read.text, file), file).map(([name, raw]) => ({ name, raw, mapping: spec.fromClient(name, raw) }));
    const pointsAtBlitz = servers.some((s) => s.mapping.kind === 'server' && isBlitzEntry(s.mapping.entry));
    return { ...base, exists: true, installed: true, text: read.text, servers, pointsAtBlitz };
  } catch (err) {
    if (!(err instanceof BlitzError)) throw err;
    return { ...base, exists: true, installed: true, error: err.message };
  }
}
