import { execFile } from 'node:child_process';
import path from 'node:path';
import { findOnPath, loadSettings, serverToEntry, type ServerEntry } from '@blitz/core';
import { BackupStore, CLIENTS, clientById, whereFromProcess, type ClientSpec, type RunProgram, type Where } from '@blitz/clients';
import { CliError, type CliContext } from '../../context.js';
import { loadSettingsOrFail } from '../../load.js';

export function whereOf(ctx: CliContext): Where {
  return whereFromProcess(ctx.env);
}

export function backupStore(ctx: CliContext): BackupStore {
  return new BackupStore(path.join(ctx.paths.stateDir, 'client-backups'));
}

/** The clients named on the command line, or every client when none is. */
export function selectClients(ids: readonly string[]): ClientSpec[] {
  if (ids.length === 0) return [...CLIENTS];
  return ids.map((id) => {
    const spec = clientById(id);
    if (spec === undefined) throw new CliError(`unknown client "${id}"; known clients: ${CLIENTS.map((c) => c.id).join(', ')}`);
    return spec;
  });
}

/** The servers in settings.toml as entries; settings with errors stop the command. */
export function blitzServerEntries(ctx: CliContext): ServerEntry[] {
  return loadSettingsOrFail(ctx).servers.map(serverToEntry);
}

/** Same, for a report that should not fail on broken settings. */
export function blitzServerEntriesLoose(ctx: CliContext): ServerEntry[] {
  return loadSettings(ctx.paths.settings).settings.servers.map(serverToEntry);
}

/** The client's own program when it is on PATH. */
export function ownProgram(ctx: CliContext, spec: ClientSpec): RunProgram | undefined {
  const command = spec.rewritesWhileRunning?.command;
  if (command === undefined) return undefined;
  const found = findOnPath(command.program, ctx.env.PATH ?? '');
  if (found === undefined) return undefined;
  return (program, args) =>
    new Promise((resolve, reject) => {
      execFile(found, [...args], { env: ctx.env, cwd: ctx.cwd, timeout: 120_000 }, (error, _stdout, stderr) => {
        // Its output may echo the entry's env: report only that it failed, and its exit code.
        if (error)
          reject(new CliError(`${program} ${args.slice(0, 2).join(' ')} failed (${error.code ?? 'killed'}): ${firstLine(stderr)}`));
        else resolve();
      });
    });
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 200);
}

/** `~/x` for paths under the home folder, as people read them. */
export function shortPath(ctx: CliContext, file: string): string {
  const home = ctx.env.HOME;
  return home !== undefined && home !== '' && file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}
