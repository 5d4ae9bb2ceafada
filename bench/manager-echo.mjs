// Issue 3 benchmark: `echo` on server-everything through the manager vs the SDK client
// directly, sequential and 32 concurrent. Target: the manager adds at most 10% to direct p50.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { systemClock } from '../packages/clock/dist/index.js';
import * as core from '../packages/core/dist/index.js';
import { compare, report } from './stats.mjs';

const require = createRequire(import.meta.url);
const everything = path.join(
  path.dirname(
    require.resolve('@modelcontextprotocol/server-everything/package.json', {
      paths: [path.join(import.meta.dirname, '../packages/core')],
    }),
  ),
  'dist',
  'index.js',
);
const TOTAL = Number(process.env.BENCH_CALLS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

const direct = new Client({ name: 'bench', version: '0' });
await direct.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-'));
// BENCH_BASE_CORE=<a copy of an earlier packages/core/dist inside the repo> adds that build as a
// row, so a change's before/after ratio comes from one run.
const base = process.env.BENCH_BASE_CORE ? await import(path.resolve(process.env.BENCH_BASE_CORE, 'index.js')) : undefined;
const manager = await startManager(core, 'this build');
const baseManager = base ? await startManager(base, 'baseline build') : undefined;

async function startManager({ createConnector, Manager }, label) {
  const dir = path.join(home, label.replace(/ /g, '-'));
  fs.mkdirSync(dir);
  const manager = new Manager({
    workspace: dir,
    clock: systemClock,
    connector: createConnector({ blitzHome: dir, clock: systemClock, clientVersion: 'bench', warn: () => {} }),
  });
  await manager.update({
    servers: [
      {
        config: {
          name: 'everything',
          transport: { kind: 'stdio', command: process.execPath, args: [everything, 'stdio'], env: {} },
          autoApprove: true,
          sandbox: false,
          agents: [],
          timeoutSeconds: 30,
          startupTimeoutSeconds: 30,
          disabled: false,
          sampling: false,
          source: { kind: 'global', file: 'bench' },
        },
      },
    ],
  });
  await manager.listTools();
  return manager;
}

const viaDirect = (i) => direct.callTool({ name: 'echo', arguments: { message: `m${i}` } });
// Resolved per call, as the hub does for each tools/call.
const via = (m) => async (i) => m.callTool(await m.resolveTool('main', 'echo'), { message: `m${i}` });
const paths = [
  ['direct SDK client', viaDirect],
  ['through the manager', via(manager)],
  ...(baseManager ? [['through the manager (baseline build)', via(baseManager)]] : []),
];

for (const concurrency of [1, 32]) {
  const rows = await compare(paths, { total: TOTAL, concurrency, rounds: ROUNDS });
  report(
    `echo on server-everything (stdio), ${TOTAL} calls, ${concurrency} in flight, median of ${ROUNDS} interleaved rounds`,
    rows,
    'direct SDK client',
  );
}

await direct.close();
await manager.close();
await baseManager?.close();
fs.rmSync(home, { recursive: true, force: true });
