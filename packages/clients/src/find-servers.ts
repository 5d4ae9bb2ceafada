import type { ClientId } from './client-spec.js';
import type { ClientState } from './inspect-client.js';
import { isBlitzEntry } from './plan/fingerprint.js';
import type { FoundServer } from './plan/plan-import.js';

export interface SkippedServer {
  readonly client: ClientId;
  readonly file: string;
  readonly name: string;
  readonly reason: string;
}

export interface FoundServers {
  readonly found: readonly FoundServer[];
  readonly skipped: readonly SkippedServer[];
  /** Files that could not be read or parsed: nothing of theirs is imported. */
  readonly unreadable: readonly { readonly client: ClientId; readonly file: string; readonly error: string }[];
}

/** Every server of these clients' files, in client and file order, except entries that run Blitz itself. */
export function findServers(states: readonly ClientState[]): FoundServers {
  const found: FoundServer[] = [];
  const skipped: SkippedServer[] = [];
  const unreadable: { client: ClientId; file: string; error: string }[] = [];
  for (const state of states) {
    const where = { client: state.spec.id, file: state.file };
    if (state.error !== undefined) unreadable.push({ ...where, error: state.error });
    for (const server of state.servers) {
      const m = server.mapping;
      if (m.kind === 'skipped') skipped.push({ ...where, name: server.name, reason: m.reason });
      else if (!isBlitzEntry(m.entry)) found.push({ ...where, name: server.name, entry: m.entry, warnings: m.warnings });
    }
    for (const { dir, names } of state.localScoped ?? []) {
      const reason = `${state.spec.title} keeps it for ${dir} alone (its local scope): blitz clients import ${state.spec.id} --project ${dir}`;
      for (const name of names) skipped.push({ ...where, name, reason });
    }
  }
  return { found, skipped, unreadable };
}
