import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BlitzClient, readDaemonState, type DaemonState } from '@blitz/client';
import { BLITZ_BIN } from './blitz-cli.js';

export interface RunningDaemon {
  child: ChildProcess;
  state: DaemonState;
  client: BlitzClient;
  output(): string;
  /** Sends SIGTERM and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `blitz daemon` in the foreground, as a real subprocess, with its own BLITZ_HOME. */
export async function startDaemonProcess(home: string, env: NodeJS.ProcessEnv = {}): Promise<RunningDaemon> {
  const child = spawn(process.execPath, [BLITZ_BIN, 'daemon'], {
    env: { PATH: process.env.PATH, HOME: home, ...env, BLITZ_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const state = readDaemonState(home);
    if (state && state.pid === child.pid) {
      const client = new BlitzClient(state);
      try {
        await client.status();
        return {
          child,
          state,
          client,
          output: () => output,
          async stop(signal: NodeJS.Signals = 'SIGTERM') {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        };
      } catch {
        // not answering yet
      }
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`daemon did not start (exit ${child.exitCode}):\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function writeSettings(home: string, text: string): void {
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, 'settings.toml'), text);
}
