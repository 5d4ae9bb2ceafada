import { loadSettings } from '@blitz/core';
import { BlitzClient, readDaemonState } from '@blitz/client';
import type { CliContext } from '../../context.js';
import { commandChecks, sandboxCheck, type DaemonSearch } from '../doctor/checks.js';

/**
 * What `blitz doctor` would say against a server just added (issue 26.5): its command not on
 * PATH (the running daemon's, or this shell's), no sandbox on this machine. The entry is saved
 * anyway: the command may be installed later.
 */
export async function addWarnings(ctx: CliContext, name: string): Promise<string[]> {
  const server = loadSettings(ctx.paths.settings).settings.servers.find((s) => s.name === name);
  if (!server) return [];
  const daemon = await daemonSearch(ctx);
  const checks = [
    ...commandChecks([server], ctx.env, daemon),
    sandboxCheck([server], process.platform, daemon?.path ?? ctx.env.PATH ?? ''),
  ];
  return checks.flatMap((c) => (c && !c.ok ? [c.detail] : []));
}

async function daemonSearch(ctx: CliContext): Promise<DaemonSearch | undefined> {
  const state = readDaemonState(ctx.paths.home);
  if (!state) return undefined;
  return new BlitzClient(state, { timeoutMs: 2_000 }).environment().catch(() => undefined);
}
