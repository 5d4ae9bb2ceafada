import { BlitzError, type ServerEntry } from '@blitz/core';
import type { BlitzLaunch, ClientSpec } from './client-spec.js';
import type { BackupStore, ConnectionRecord } from './files/backup-store.js';
import {
  parseClientText,
  savedServer,
  serversOf,
  withoutServerText,
  withServerData,
  withServerText,
  type SavedServer,
} from './files/client-document.js';
import { editClientFile } from './files/edit-client-file.js';
import { readClientFile } from './files/read-client-file.js';
import { unifiedDiff } from './files/unified-diff.js';
import { maskSecretsIn } from './mask-secrets.js';
import { BLITZ_ENTRY, planConnect, type ClientServer, type ConnectPlan } from './plan/plan-connect.js';

/** Runs a client's own program with these arguments; rejects when it fails. */
export type RunProgram = (program: string, args: readonly string[]) => Promise<void>;

export interface ConnectOptions {
  readonly launch: BlitzLaunch;
  /** The servers in Blitz's settings (and so no longer needed in the client). */
  readonly blitzServers: readonly ServerEntry[];
  readonly store: BackupStore;
  readonly dryRun?: boolean;
  /** The client's own program when it is on PATH; undefined: edit the file. */
  readonly ownProgram?: RunProgram;
  readonly beforeWrite?: () => Promise<void> | void;
}

export interface ConnectResult {
  readonly file: string;
  readonly plan: ConnectPlan;
  readonly changed: boolean;
  /** Unified diff of the change, secrets masked ('' when nothing changes). */
  readonly diff: string;
  /** How the change was made: by editing the file, or through the client's own command. */
  readonly via: 'file' | 'command';
}

interface Computed {
  readonly plan: ConnectPlan;
  readonly after: string;
  readonly intended: Record<string, unknown>;
  readonly removed: { name: string; saved: SavedServer }[];
  readonly previousBlitz: SavedServer | null;
}

/** The whole change on one text: pure, and run again on fresh text when the file changes under us. */
export function computeConnect(
  spec: ClientSpec,
  file: string,
  text: string,
  blitzServers: readonly ServerEntry[],
  native: Record<string, unknown>,
): Computed {
  let data = parseClientText(spec, text, file);
  const servers: ClientServer[] = serversOf(spec, data, file).map(([name, raw]) => ({ name, raw, mapping: spec.fromClient(name, raw) }));
  const plan = planConnect(servers, blitzServers, native);
  let after = text;
  const current = servers.find((s) => s.name === BLITZ_ENTRY);
  // A new blitz table stands where the first server it replaces stood, under that server's
  // comments, which may head the whole section (Codex's `# Servers`): they stay (issue 26.9).
  const inPlaceOf = current === undefined ? servers.find((s) => plan.remove.some((r) => r.name === s.name))?.name : undefined;
  const removed = plan.remove.map(({ name }) => ({
    name,
    saved: savedServer(spec, text, file, name, servers.find((s) => s.name === name)!.raw, name === inPlaceOf ? 'header' : 'comments'),
  }));
  const previousBlitz = current === undefined ? null : savedServer(spec, text, file, BLITZ_ENTRY, current.raw, 'header');
  for (const { name } of plan.remove) {
    if (name !== inPlaceOf) after = withoutServerText(spec, after, file, name);
    data = withServerData(spec, data, name, undefined);
  }
  if (plan.blitz !== 'same') {
    after = withServerText(spec, after, file, BLITZ_ENTRY, native, inPlaceOf);
    data = withServerData(spec, data, BLITZ_ENTRY, native);
  }
  return { plan, after, intended: data, removed, previousBlitz };
}

/**
 * Points one client at Blitz (see `planConnect`). Before the first change its file is kept
 * in the backup store, and what was changed is recorded for `disconnect`. Connecting again
 * changes nothing; connecting after more servers moved into Blitz adds to the record.
 */
export async function connectClient(spec: ClientSpec, file: string, options: ConnectOptions): Promise<ConnectResult> {
  const native = spec.toClient(options.launch);
  const read = await readClientFile(file, spec.maxFileBytes);
  const before = read.exists ? read.text : '';
  const first = computeConnect(spec, file, before, options.blitzServers, native);
  const diff = maskedDiff(spec, file, before, first.after);
  if (options.dryRun || first.after === before) return { file, plan: first.plan, changed: false, diff, via: 'file' };

  const existing = await options.store.load(spec.id, file);
  let backup = existing?.backup ?? null;
  const keep = async (original: string | undefined) => {
    if (existing === undefined && original !== undefined) backup = await options.store.keepOriginal(spec.id, file, original);
  };
  let done: Computed = first;
  let via: 'file' | 'command' = 'file';
  let after: string;
  if (options.ownProgram !== undefined && spec.rewritesWhileRunning?.command !== undefined) {
    const command = spec.rewritesWhileRunning.command;
    const program = options.ownProgram;
    await keep(read.exists ? before : undefined);
    const current = async () => {
      const now = await readClientFile(file, spec.maxFileBytes);
      const text = now.exists ? now.text : '';
      return { text, names: serversOf(spec, parseClientText(spec, text, file), file).map(([n]) => n) };
    };
    try {
      if (first.plan.blitz === 'update') await program(command.program, command.remove(BLITZ_ENTRY));
      if (first.plan.blitz !== 'same') await program(command.program, command.add(BLITZ_ENTRY, options.launch));
      for (const { name } of first.plan.remove) await program(command.program, command.remove(name));
    } catch (err) {
      // Part of it may be done: record what is, so disconnect can still undo it.
      const now = await current();
      await options.store.save(
        recordOf(
          spec,
          file,
          existing,
          backup,
          read.exists,
          now.text,
          first.removed.filter((r) => !now.names.includes(r.name)),
          first.previousBlitz,
        ),
      );
      throw err;
    }
    via = 'command';
    const now = await current();
    after = now.text;
    // The client wrote the file itself: check it holds what connect meant, as our own edits are checked.
    const names = now.names;
    const wrong = [
      ...(names.includes(BLITZ_ENTRY) ? [] : [`no ${BLITZ_ENTRY} entry`]),
      ...first.plan.remove.filter((r) => names.includes(r.name)).map((r) => `${r.name} still there`),
    ];
    if (wrong.length > 0)
      throw new BlitzError(
        'INTERNAL',
        `${command.program} mcp left ${file} without the intended change (${wrong.join(', ')}); the original is kept in ${backup ?? 'no backup (there was no file)'}`,
        { reason: 'CLIENT_COMMAND_MISMATCH' },
      );
  } else {
    const outcome = await editClientFile(
      file,
      (text) => {
        done = computeConnect(spec, file, text, options.blitzServers, native);
        return { after: done.after, intended: done.intended };
      },
      {
        parse: (text) => parseClientText(spec, text, file),
        maxBytes: spec.maxFileBytes,
        beforeFirstWrite: keep,
        ...(options.beforeWrite ? { beforeWrite: options.beforeWrite } : {}),
      },
    );
    if (!outcome.changed) return { file, plan: done.plan, changed: false, diff: '', via };
    after = outcome.text;
  }
  await options.store.save(
    recordOf(spec, file, existing, backup, read.exists, after, done.removed, done.previousBlitz, options.store.now()),
  );
  return { file, plan: done.plan, changed: true, diff, via };
}

/** The record after this connect: the first connect's backup and blitz entry, every server moved so far. */
function recordOf(
  spec: ClientSpec,
  file: string,
  existing: ConnectionRecord | undefined,
  backup: string | null,
  existed: boolean,
  after: string,
  removed: readonly { name: string; saved: SavedServer }[],
  previousBlitz: SavedServer | null,
  now = new Date().toISOString(),
): ConnectionRecord {
  return {
    client: spec.id,
    file,
    connectedAt: existing?.connectedAt ?? now,
    backup: existing === undefined && !existed ? null : backup,
    after,
    removed: [...(existing?.removed ?? []), ...removed.filter((r) => !existing?.removed.some((e) => e.name === r.name))],
    previousBlitz: existing !== undefined ? existing.previousBlitz : previousBlitz,
  };
}

/** A diff safe to print: env and header values masked on both sides. */
export function maskedDiff(spec: ClientSpec, file: string, before: string, after: string): string {
  if (before === after) return '';
  const docs = [before, after].map((t) => {
    try {
      return parseClientText(spec, t, file);
    } catch {
      return {};
    }
  });
  return unifiedDiff(maskSecretsIn(before, ...docs), maskSecretsIn(after, ...docs), file);
}
