import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BlitzClient, readDaemonState, type DaemonState } from '@blitz/client';
import { DAEMON_ENTRY } from '@blitz/daemon/entry';
import { CliError, type CliContext } from './context.js';

/** The running daemon's client, or undefined when none runs. */
export function connectToDaemon(ctx: CliContext): { client: BlitzClient; state: DaemonState } | undefined {
  const state = readDaemonState(ctx.paths.home);
  return state ? { client: new BlitzClient(state), state } : undefined;
}

/**
 * Starts the daemon detached, its output in `logs/daemon.out`, and waits until it answers.
 * Returns the state of the daemon that answers (this one, or one that was already running).
 */
export async function startDaemon(ctx: CliContext, timeoutMs = 15_000): Promise<{ state: DaemonState; started: boolean }> {
  const running = readDaemonState(ctx.paths.home);
  if (running) return { state: running, started: false };
  fs.mkdirSync(ctx.paths.logs, { recursive: true, mode: 0o700 });
  const out = fs.openSync(path.join(ctx.paths.logs, 'daemon.out'), 'a', 0o600);
  const child = spawn(process.execPath, [DAEMON_ENTRY], {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...ctx.env, BLITZ_HOME: ctx.paths.home },
    cwd: ctx.paths.home,
    windowsHide: true,
  });
  fs.closeSync(out);
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? 1));
  child.unref();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const state = readDaemonState(ctx.paths.home);
    if (state) {
      try {
        await new BlitzClient(state, { timeoutMs: 2_000 }).status();
        return { state, started: state.pid === child.pid };
      } catch {
        // Listening, not answering yet.
      }
    }
    if (exited !== null) break;
    // A small file read: every 10 ms costs nothing, and a cold start (blitz connect) waits for it.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const tail = readTail(path.join(ctx.paths.logs, 'daemon.out'));
  throw new CliError(`the daemon did not start${exited === null ? ` within ${timeoutMs / 1000}s` : ` (exit code ${exited})`}${tail ? `:\n${tail}` : ''}`);
}

function readTail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-10).join('\n');
  } catch {
    return '';
  }
}
