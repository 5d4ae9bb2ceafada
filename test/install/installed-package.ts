/** Support for the install tests: `npm run pack`'s tarball, installed as a user would, into a temporary prefix. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, tempDir, type RunResult } from '../support/blitz-cli.js';

export interface InstalledPackage {
  /** The `npm install -g --prefix` folder: `bin/blitz`, `lib/node_modules/…`. */
  prefix: string;
  /** The `blitz` npm linked into `prefix/bin`. */
  bin: string;
  /** The installed package's folder. */
  packageDir: string;
  /** A PATH with only this `blitz` and this Node (and the system's own tools): no clone, no dev dependency. */
  path: string;
  /** Runs the installed `blitz` (through its own shebang) with its own HOME and BLITZ_HOME. */
  run(args: readonly string[], opts: { home: string; cwd?: string; env?: NodeJS.ProcessEnv }): Promise<RunResult>;
  /** Starts the installed `blitz` with piped output, for commands that keep running. */
  spawn(args: readonly string[], opts: { home: string; cwd?: string; env?: NodeJS.ProcessEnv }): ChildProcess;
  remove(): void;
}

function exec(file: string, args: readonly string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { ...opts, encoding: 'utf8', timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/**
 * Packs the built workspaces (scripts/pack.mjs) and installs the tarball with an empty npm
 * cache, so every dependency comes from the registry as on a fresh machine. One per test
 * file: it downloads.
 */
export async function installPackage(): Promise<InstalledPackage> {
  const root = tempDir('blitz-install-');
  const env = {
    ...process.env,
    NO_UPDATE_NOTIFIER: '1',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  const tarball = (await exec(process.execPath, [path.join(REPO_ROOT, 'scripts', 'pack.mjs'), '--out', root], { cwd: REPO_ROOT, env }))
    .trim()
    .split('\n')
    .pop()!;
  const prefix = path.join(root, 'prefix');
  // From a folder outside the clone, so neither its .npmrc nor its node_modules take part.
  await exec(
    'npm',
    ['install', '--global', '--prefix', prefix, '--cache', path.join(root, 'npm-cache'), '--no-audit', '--no-fund', tarball],
    { cwd: root, env },
  );
  const bin = path.join(prefix, 'bin', 'blitz');
  const systemPath = ['/usr/local/bin', '/usr/bin', '/bin'].filter((dir) => dir !== path.dirname(process.execPath));
  const PATH = [path.join(prefix, 'bin'), path.dirname(process.execPath), ...systemPath].join(path.delimiter);
  const childEnv = (opts: { home: string; env?: NodeJS.ProcessEnv }) => ({
    PATH,
    HOME: opts.home,
    NO_UPDATE_NOTIFIER: '1',
    ...opts.env,
    BLITZ_HOME: opts.home,
  });
  return {
    prefix,
    bin,
    packageDir: path.join(prefix, 'lib', 'node_modules', '@blitz-mcp', 'blitz'),
    path: PATH,
    run: (args, opts) =>
      new Promise((resolve) => {
        execFile(bin, [...args], { cwd: opts.cwd ?? opts.home, env: childEnv(opts), timeout: 60_000 }, (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
        });
      }),
    spawn: (args, opts) => spawn(bin, [...args], { cwd: opts.cwd ?? opts.home, env: childEnv(opts), stdio: ['ignore', 'pipe', 'pipe'] }),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** Every file under `dir` whose text contains `needle` (the installed package must not name the clone). */
export function filesMentioning(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (fs.readFileSync(file).includes(needle)) found.push(file);
  }
  return found;
}
