import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readDaemonState } from '@blitz/client';
import { blitzHome, blitzPaths } from '@blitz/core/paths';
import { DAEMON_ENTRY } from '@blitz/daemon/entry';
import { blitzCommand } from './blitz-path.js';

/** A daemon this process spawned, and its exit code once it has exited. */
export interface SpawnedDaemon {
  readonly child: ChildProcess;
  /** Date.now() just before the spawn: the state file it writes says it started later. */
  readonly spawnedAt: number;
  exitCode(): number | null;
}

/** Spawns the daemon detached, its output appended to `logs/daemon.out`; startDaemon waits for it. */
export function spawnDaemon(home: string, env: NodeJS.ProcessEnv): SpawnedDaemon {
  const { logs } = blitzPaths(home);
  fs.mkdirSync(logs, { recursive: true, mode: 0o700 });
  const out = fs.openSync(path.join(logs, 'daemon.out'), 'a', 0o600);
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, [DAEMON_ENTRY], {
    detached: true,
    stdio: ['ignore', out, out],
    // Its log is logs/blitz.log (rotated); daemon.out, never rotated, is for what is said outside it.
    env: { ...env, BLITZ_HOME: home, BLITZ_DAEMON_LOG_STDERR: '0', BLITZ_CLI_BIN: blitzCommand().bin },
    cwd: home,
    windowsHide: true,
  });
  fs.closeSync(out);
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? 1));
  child.unref();
  return { child, spawnedAt, exitCode: () => exited };
}

let early: { home: string; daemon: SpawnedDaemon } | undefined;

/**
 * `blitz connect` with no daemon running spawns it here, before the rest of the CLI is loaded
 * (main.ts runs this first), so that the daemon's own start overlaps connect's module loading
 * (issue 18, cold start). Only for a command line connect will accept as it is — known options,
 * each with its value, and a workspace that is a folder — so that whatever connect refuses is
 * still refused before any daemon is involved; anything else is left to startDaemon.
 */
export function startDaemonEarly(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): void {
  if (argv[2] !== 'connect') return;
  const workspace = connectWorkspace(argv.slice(3));
  if (workspace === undefined || !isDirectory(path.resolve(cwd, workspace))) return;
  const home = blitzHome(env);
  if (readDaemonState(home) || fs.existsSync(blitzPaths(home).daemonStopped)) return;
  early = { home, daemon: spawnDaemon(home, env) };
}

/** The daemon startDaemonEarly spawned for `home`, handed over once. */
export function takeEarlyDaemon(home: string): SpawnedDaemon | undefined {
  if (early?.home !== home) return undefined;
  const { daemon } = early;
  early = undefined;
  return daemon;
}

const CONNECT_OPTIONS = new Set(['--workspace', '--agent', '--mode']);

/** connect's `--workspace` (default `.`), or undefined for arguments other than its options with their values. */
export function connectWorkspace(args: readonly string[]): string | undefined {
  let workspace = '.';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!CONNECT_OPTIONS.has(name)) return undefined;
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || (eq < 0 && value.startsWith('-'))) return undefined;
    if (name === '--workspace') workspace = value;
    if (name === '--mode' && value !== 'read-only') return undefined;
  }
  return workspace;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
