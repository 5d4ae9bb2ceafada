import fs from 'node:fs';
import path from 'node:path';
import { BlitzClient, readDaemonState, type DaemonState } from '@blitz/client';
import { CliError, type CliContext } from './context.js';
import { spawnDaemon, takeEarlyDaemon, type SpawnedDaemon } from './early-daemon.js';

/** The running daemon's client, or undefined when none runs. */
export function connectToDaemon(ctx: CliContext): { client: BlitzClient; state: DaemonState } | undefined {
  const state = readDaemonState(ctx.paths.home);
  return state ? { client: new BlitzClient(state), state } : undefined;
}

/** What `blitz connect` says while the daemon is stopped on purpose, and how to end that. */
export const DAEMON_STOPPED_MESSAGE =
  'the Blitz daemon was stopped (blitz daemon stop) and stays stopped until you start it: blitz daemon start';

/** Whether `blitz daemon stop` stopped the daemon and no daemon started since (daemonStopped). */
export function stoppedOnPurpose(ctx: Pick<CliContext, 'paths'>): boolean {
  return fs.existsSync(ctx.paths.daemonStopped);
}

export interface StartOptions {
  timeoutMs?: number;
  /**
   * A client's start (blitz connect), not the user's: refused while the daemon is stopped on
   * purpose, so that `blitz daemon stop` sticks until `blitz daemon start` (issue 26.8).
   */
  unlessStopped?: boolean;
}

/**
 * Starts the daemon detached, its output in `logs/daemon.out` (or takes the one blitz connect
 * spawned early), and waits until it answers.
 * Returns the state of the daemon that answers (this one, or one that was already running).
 */
export async function startDaemon(ctx: CliContext, opts: StartOptions = {}): Promise<{ state: DaemonState; started: boolean }> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  // Spawned before the CLI was loaded (blitz connect), it is this call's to wait for.
  let daemon = takeEarlyDaemon(ctx.paths.home);
  if (!daemon) {
    const running = readDaemonState(ctx.paths.home);
    if (running) return { state: running, started: false };
    if (opts.unlessStopped && stoppedOnPurpose(ctx)) throw new CliError(DAEMON_STOPPED_MESSAGE);
    daemon = spawnDaemon(ctx.paths.home, ctx.env);
  }
  const { child } = daemon;
  // Real time, no Clock: it waits for a real process to start, as its tests do (docs/architecture.md "Time").
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const state = readDaemonState(ctx.paths.home);
    // Written by our own child once it listens: it answers, no round trip needed to know (a cold start waits for it).
    if (state && isWrittenBy(state, daemon)) return { state, started: true };
    if (state) {
      // Another daemon's (it won a race with ours), or the leftover of one killed: it must answer.
      try {
        await new BlitzClient(state, { timeoutMs: 2_000 }).status();
        return { state, started: state.pid === child.pid };
      } catch {
        // Listening, not answering yet.
      }
    }
    if (daemon.exitCode() !== null) break;
    // A small file read: every 10 ms costs nothing, and a cold start (blitz connect) waits for it.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const tail = readTail(path.join(ctx.paths.logs, 'daemon.out'));
  const exited = daemon.exitCode();
  throw new CliError(
    `the daemon did not start${exited === null ? ` within ${timeoutMs / 1000}s` : ` (exit code ${exited})`}${tail ? `:\n${tail}` : ''}`,
  );
}

/** The state file is this spawn's: its pid, started after the spawn (not a killed daemon's file whose pid came back). */
export function isWrittenBy(state: DaemonState, daemon: SpawnedDaemon): boolean {
  return state.pid === daemon.child.pid && Date.parse(state.startedAt) >= daemon.spawnedAt;
}

function readTail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-10).join('\n');
  } catch {
    return '';
  }
}
