import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createConnector, Manager } from '../packages/core/dist/index.js';
import { systemClock } from '../packages/clock/dist/index.js';
import { everything } from './harness.mjs';
const direct = new Client({ name: 'bench', version: '0' });
await direct.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-'));
const manager = new Manager({ workspace: home, clock: systemClock, connector: createConnector({ blitzHome: home, clock: systemClock, clientVersion: 'bench', warn: () => {} }) });
await manager.update({ servers: [{ config: { name: 'everything', transport: { kind: 'stdio', command: process.execPath, args: [everything, 'stdio'], env: {} }, autoApprove: true, sandbox: false, agents: [], timeoutSeconds: 30, startupTimeoutSeconds: 30, disabled: false, sampling: false, source: { kind: 'global', file: 'bench' } } }] });
await manager.listTools();
const N = 10000;
const resolved = manager.resolveTool ? await manager.resolveTool('main', 'echo') : undefined;
async function bench(name, fn) {
  for (let i = 0; i < 1000; i++) await fn(i);
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < N; i++) await fn(i);
  const c = process.cpuUsage(c0);
  console.log(name.padEnd(20), 'wall', ((performance.now() - t0) * 1000 / N).toFixed(1), 'µs; cpu', ((c.user + c.system) / N).toFixed(1), 'µs/call (user', (c.user / N).toFixed(1), 'sys', (c.system / N).toFixed(1), ')');
}
for (let r = 0; r < 2; r++) {
  await bench('direct', (i) => direct.callTool({ name: 'echo', arguments: { message: `m${i}` } }));
  await bench('manager', (i) => manager.callTool(resolved ?? 'echo', { message: `m${i}` }));
}
await direct.close(); await manager.close();
