/** Support for the tray's cross-process tests: `blitz tray` as a subprocess, and a fake `notify-send`. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BlitzClient, readDaemonState } from '@blitz/client';
import { BLITZ_BIN } from '../support/blitz-cli.js';

export interface RunningTray {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `blitz tray` with its own BLITZ_HOME and HOME, run from `cwd` (where a fake helper may
 * wait in `./traybin/`). DISPLAY is set so the display check passes; with a fake helper
 * nothing ever uses it.
 */
export function startTray(opts: { home: string; cwd: string; env?: NodeJS.ProcessEnv; binDir?: string }): RunningTray {
  const PATH = opts.binDir ? `${opts.binDir}${path.delimiter}${process.env.PATH}` : process.env.PATH;
  const child = spawn(process.execPath, [BLITZ_BIN, 'tray'], {
    cwd: opts.cwd,
    env: { PATH, HOME: opts.home, DISPLAY: ':97', ...opts.env, BLITZ_HOME: opts.home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A `notify-send` that records its arguments, one JSON array a line, for node-notifier to find first on PATH. */
export function fakeNotifySend(binDir: string): { calls(): string[][] } {
  return { calls: recordingCommand(binDir, 'notify-send') };
}

/** An opener (`xdg-open`) first on PATH that records the arguments of each run and succeeds. */
export function fakeOpener(binDir: string, name: string): () => string[][] {
  return recordingCommand(binDir, name);
}

/** A command `name` in `binDir` that appends its arguments to a log and succeeds; returns the reader of that log. */
function recordingCommand(binDir: string, name: string): () => string[][] {
  const log = path.join(binDir, `${name}.jsonl`);
  fs.mkdirSync(binDir, { recursive: true });
  fs.writeFileSync(
    path.join(binDir, name),
    `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n`,
    { mode: 0o755 },
  );
  return () => {
    try {
      return fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as string[]);
    } catch {
      return [];
    }
  };
}

/** A `[[mcp.servers]]` entry running a Node script, outside the sandbox. */
export function nodeServer(name: string, script: string, extra = ''): string {
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(script)}]\nsandbox = false\n${extra}`;
}

/**
 * Stops a daemon still running for `home` (one `blitz tray` started detached) and returns
 * its pid: it leads its own session, which `assertNoOrphans` is then told to search.
 */
export async function stopLeftDaemon(home: string): Promise<number[]> {
  const state = readDaemonState(home);
  if (!state) return [];
  await new BlitzClient(state).shutdown().catch(() => undefined);
  return [state.pid];
}
