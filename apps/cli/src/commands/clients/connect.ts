import { Redactor } from '@blitz/core';
import { connectClient, disconnectClient, inspectClient, type ClientSpec, type ConnectResult, type DisconnectResult } from '@blitz/clients';
import { CliError, type CliContext } from '../../context.js';
import { blitzLaunch } from './blitz-launch.js';
import { backupStore, blitzServerEntries, ownProgram, selectClients, shortPath, whereOf } from './client-context.js';

export interface ConnectOptions {
  project?: string;
  all?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/** `blitz clients connect`: a `blitz` entry in each client, and the servers Blitz runs taken out of it. */
export async function connectClients(ctx: CliContext, ids: readonly string[], opts: ConnectOptions): Promise<void> {
  if (ids.length === 0 && !opts.all)
    throw new CliError(
      'name the clients to connect (for example: blitz clients connect claude-code cursor), or use --all for every client found',
    );
  if (ids.length > 0 && opts.all) throw new CliError('give client names or --all, not both');
  if (opts.project !== undefined)
    throw new CliError(
      "--project is for import: connect points a client's user settings at Blitz, which serves each project's trusted servers itself",
    );
  const launch = blitzLaunch(ctx);
  const blitzServers = blitzServerEntries(ctx);
  const store = backupStore(ctx);
  const results: object[] = [];
  let failed = false;
  for (const spec of selectClients(ids)) {
    const state = await inspectClient(spec, whereOf(ctx));
    if (opts.all && !state.installed) continue;
    if (state.error !== undefined) {
      failed = true;
      ctx.err(`blitz: ${spec.id}: ${state.error}`);
      results.push({ client: spec.id, file: state.file, error: state.error });
      continue;
    }
    const program = ownProgram(ctx, spec);
    let result: ConnectResult;
    try {
      result = await connectClient(spec, state.file, {
        launch,
        blitzServers,
        store,
        dryRun: Boolean(opts.dryRun),
        ...(program ? { ownProgram: program } : {}),
      });
    } catch (err) {
      failed = true;
      const message = err instanceof Error ? err.message : String(err);
      ctx.err(`blitz: ${spec.id}: ${message}`);
      results.push({ client: spec.id, file: state.file, error: message });
      continue;
    }
    results.push({
      client: spec.id,
      file: result.file,
      changed: result.changed,
      via: result.via,
      blitz: result.plan.blitz,
      removed: result.plan.remove,
      kept: result.plan.keep,
      ...(opts.dryRun ? { diff: result.diff } : {}),
    });
    if (!opts.json) printConnect(ctx, spec, result, Boolean(opts.dryRun), program !== undefined);
  }
  if (opts.json) ctx.out(JSON.stringify(results, null, 2));
  if (results.length === 0) ctx.out('No client found to connect (see blitz clients).');
  if (failed) process.exitCode = 1;
}

function printConnect(ctx: CliContext, spec: ClientSpec, r: ConnectResult, dryRun: boolean, viaCommand: boolean): void {
  const file = shortPath(ctx, r.file);
  if (dryRun) {
    ctx.out(r.diff === '' ? `${spec.id}: ${file} already points at Blitz; nothing would change.` : r.diff.trimEnd());
    const program = spec.rewritesWhileRunning?.command?.program;
    if (r.diff !== '' && viaCommand && program !== undefined)
      ctx.out(`  (${program} is on PATH: the change will be made through ${program} mcp, which writes the file in its own format)`);
    return;
  }
  if (!r.changed) {
    ctx.out(`${spec.id}: ${file} already points at Blitz; nothing changed.`);
    return;
  }
  const parts = [
    r.plan.blitz === 'add' ? 'added the blitz entry' : r.plan.blitz === 'update' ? 'updated the blitz entry' : 'kept the blitz entry',
  ];
  if (r.plan.remove.length > 0)
    parts.push(
      `took out ${r.plan.remove.length} server${r.plan.remove.length === 1 ? '' : 's'} Blitz now runs (${r.plan.remove.map((x) => x.name).join(', ')})`,
    );
  ctx.out(
    `${spec.id}: connected ${file}: ${parts.join('; ')}${r.via === 'command' ? ` (through ${spec.rewritesWhileRunning?.command?.program} mcp)` : ''}.`,
  );
  for (const k of r.plan.keep) ctx.out(`  kept ${k.name}: ${k.why}`);
  if (spec.rewritesWhileRunning !== undefined && !viaCommand) {
    ctx.out(`  ${spec.title} keeps this file in memory while it runs: restart it, or it may write the old servers back.`);
  }
}

export interface DisconnectOptions {
  /** Every connected client: what no names means too, accepted as connect takes it. */
  all?: boolean;
  json?: boolean;
}

/** `blitz clients disconnect`: each client back to what connect found. */
export async function disconnectClients(ctx: CliContext, ids: readonly string[], opts: DisconnectOptions): Promise<void> {
  if (ids.length > 0 && opts.all) throw new CliError('give client names or --all, not both');
  const store = backupStore(ctx);
  const results: object[] = [];
  const redactor = new Redactor();
  for (const spec of selectClients(ids)) {
    const state = await inspectClient(spec, whereOf(ctx));
    const record = await store.load(spec.id, state.file);
    if (ids.length === 0 && record === undefined && !state.pointsAtBlitz) continue;
    let result: DisconnectResult;
    try {
      result = await disconnectClient(spec, state.file, store);
    } catch (err) {
      const message = redactor.redact(err instanceof Error ? err.message : String(err));
      ctx.err(`blitz: ${spec.id}: ${message}`);
      results.push({ client: spec.id, file: state.file, error: message });
      process.exitCode = 1;
      continue;
    }
    results.push({ client: spec.id, ...result });
    if (!opts.json) printDisconnect(ctx, spec, result);
  }
  if (opts.json) ctx.out(JSON.stringify(results, null, 2));
  else if (results.length === 0) ctx.out('No client is connected to Blitz.');
}

function printDisconnect(ctx: CliContext, spec: ClientSpec, r: DisconnectResult): void {
  const file = shortPath(ctx, r.file);
  switch (r.kind) {
    case 'restored':
      ctx.out(
        `${spec.id}: ${file} ${r.backup === null ? 'removed (connect had created it)' : 'restored to what connect found, byte for byte'}.`,
      );
      break;
    case 'undone': {
      const back = r.plan.putBack.map((p) => p.name);
      ctx.out(
        `${spec.id}: ${file} changed since connect, so only connect's changes were undone: ${r.plan.removeBlitz ? 'removed the blitz entry' : 'no blitz entry left'}${back.length > 0 ? `; put back ${back.join(', ')}` : ''}.`,
      );
      for (const name of r.plan.present) ctx.out(`  left ${name} as it is now (it is in the file again)`);
      break;
    }
    case 'not-connected':
      ctx.out(
        `${spec.id}: ${file}: ${r.removedEntry ? 'removed the blitz entry (no record of connecting it, so nothing else to put back)' : 'not connected to Blitz; nothing to do'}.`,
      );
      break;
    default: {
      const never: never = r;
      throw new Error(`unexpected result ${JSON.stringify(never)}`);
    }
  }
  if (spec.rewritesWhileRunning !== undefined)
    ctx.out(`  ${spec.title} keeps this file in memory while it runs: restart it to pick up the change.`);
}
