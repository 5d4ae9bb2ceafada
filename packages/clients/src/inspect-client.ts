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
  /** Servers the file keeps for one project alone (see ClientSpec.localScope), left by a user-scope import. */
  readonly localScoped?: readonly { readonly dir: string; readonly names: readonly string[] }[];
}

/** The user-scope file this client uses here: the first that exists, else the first it would create. */
export async function userFileOf(spec: ClientSpec, where: Where): Promise<string> {
  const candidates = spec.userFiles(where);
  for (const file of candidates) {
    if ((await readClientFile(file, spec.maxFileBytes).catch(() => ({ exists: true }))).exists) return file;
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
    const read = await readClientFile(file, spec.maxFileBytes);
    if (!read.exists) return { ...base, exists: false, installed };
    const data = parseClientText(spec, read.text, file);
    const servers = serversOf(spec, data, file).map(([name, raw]) => ({ name, raw, mapping: spec.fromClient(name, raw) }));
    const pointsAtBlitz = servers.some((s) => s.mapping.kind === 'server' && isBlitzEntry(s.mapping.entry));
    const localScoped = spec.localScope?.projects(data) ?? [];
    return {
      ...base,
      exists: true,
      installed: true,
      text: read.text,
      servers,
      pointsAtBlitz,
      ...(localScoped.length > 0 ? { localScoped } : {}),
    };
  } catch (err) {
    if (!(err instanceof BlitzError)) throw err;
    return { ...base, exists: true, installed: true, error: err.message };
  }
}

/** The servers a client's user file keeps for project `dir` alone (Claude Code's local scope), as a file state of their own. */
export async function inspectLocalScope(spec: ClientSpec, where: Where, dir: string): Promise<ClientState | undefined> {
  if (spec.localScope === undefined) return undefined;
  const { localScope: _, ...rest } = spec;
  const file = await userFileOf(spec, where);
  for (const serversKey of spec.localScope.keys(dir)) {
    const state = await inspectFile({ ...rest, serversKey }, file);
    if (state.servers.length > 0) return state;
  }
  return undefined;
}
