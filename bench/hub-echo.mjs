// Issue 5 benchmark: `tools/call echo` on server-everything through the daemon's /mcp and
// through `blitz connect`, against a direct SDK stdio connection to the same server, in one
// run, sequential and 16 concurrent. Targets: hub p50 at most 2.5× direct; at 16 concurrent
// at least half of direct's calls/s.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readDaemonState } from '../packages/client/dist/index.js';
import { compare, report } from './stats.mjs';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(root, 'packages', 'core', 'package.json'));
const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const blitz = path.join(root, 'apps', 'cli', 'bin', 'blitz.js');
const TOTAL = Number(process.env.BENCH_CALLS ?? 1000);

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-'));
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-ws-'));
fs.writeFileSync(
  path.join(home, 'settings.toml'),
  `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "everything"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(everything)}, "stdio"]\nsandbox = false\nauto_approve = true\n`,
);
const env = { ...process.env, BLITZ_HOME: home };
const daemon = spawn(process.execPath, [blitz, 'daemon'], { env, stdio: 'ignore' });
let state;
while (!(state = readDaemonState(home))) await new Promise((r) => setTimeout(r, 50));

const direct = new Client({ name: 'bench', version: '0' });
await direct.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
const http = new Client({ name: 'bench', version: '0' });
await http.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${state.port}/mcp?workspace=${encodeURIComponent(workspace)}`), { requestInit: { headers: { authorization: `Bearer ${state.token}` } } }));
const bridged = new Client({ name: 'bench', version: '0' });
await bridged.connect(new StdioClientTransport({ command: process.execPath, args: [blitz, 'connect', '--workspace', workspace], env, stderr: 'ignore' }));
await http.listTools();
await bridged.listTools();

const call = (client) => (i) => client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
for (const concurrency of [1, 16]) {
  const rows = await compare(
    [
      ['direct SDK stdio', call(direct)],
      ['hub over HTTP (/mcp)', call(http)],
      ['hub via blitz connect', call(bridged)],
    ],
    { total: TOTAL, concurrency },
  );
  report(`tools/call echo on server-everything, ${TOTAL} calls, ${concurrency} in flight, median of 5 interleaved rounds`, rows, 'direct SDK stdio');
}

await Promise.all([direct.close(), http.close(), bridged.close()]);
daemon.kill('SIGTERM');
await new Promise((r) => daemon.once('exit', r));
fs.rmSync(home, { recursive: true, force: true });
fs.rmSync(workspace, { recursive: true, force: true });
