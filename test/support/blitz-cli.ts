import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The clone's own launcher: it runs the workspaces' unbundled `dist/`. */
export const CLONE_BIN = path.join(REPO_ROOT, 'apps', 'cli', 'bin', 'blitz.js');
/**
 * The `blitz` every real test runs: the package as npm installs it, staged for this run by
 * global-setup.ts. An in-process run has none (its guard refuses a child process anyway).
 */
export const BLITZ_BIN: string = inject('blitzBin') ?? CLONE_BIN;

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `blitz` (or `bin`) as users do: a subprocess with its own BLITZ_HOME. */
export function runBlitz(
  args: readonly string[],
  opts: { home: string; cwd?: string; env?: NodeJS.ProcessEnv; bin?: string },
): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [opts.bin ?? BLITZ_BIN, ...args],
      { cwd: opts.cwd ?? opts.home, env: { PATH: process.env.PATH, HOME: opts.home, ...opts.env, BLITZ_HOME: opts.home }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}
