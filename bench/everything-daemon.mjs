// A daemon for the hub benchmarks: its own BLITZ_HOME and workspace in the temp folder, one
// server (server-everything over stdio, auto-approved), loopback on a free port.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { readDaemonState } from '../packages/client/dist/index.js';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(root, 'packages', 'core', 'package.json'));
export const EVERYTHING = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
export const BLITZ = path.join(root, 'apps', 'cli', 'bin', 'blitz.js');

/** Starts it; `stop()` ends the daemon and removes its folders. */
export async function startEverythingDaemon() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-'));
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-ws-'));
  fs.writeFileSync(
    path.join(home, 'settings.toml'),
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "everything"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\nsandbox = false\nauto_approve = true\n`,
  );
  const env = { ...process.env, BLITZ_HOME: home };
  const daemon = spawn(process.execPath, [BLITZ, 'daemon'], { env, stdio: 'ignore' });
  let state;
  for (const deadline = Date.now() + 20_000; !(state = readDaemonState(home)); ) {
    if (Date.now() > deadline || daemon.exitCode !== null) throw new Error('the daemon did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    home,
    workspace,
    env,
    state,
    async stop() {
      if (daemon.exitCode === null) {
        daemon.kill('SIGTERM');
        await new Promise((r) => daemon.once('exit', r));
      }
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(workspace, { recursive: true, force: true });
    },
  };
}
