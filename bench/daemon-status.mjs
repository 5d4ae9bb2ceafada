// Issue 4 benchmark: `GET /v1/status` with 20 configured (and connected) servers against the
// same daemon's trivial `GET /v1/health`, in one run; then the daemon's CPU time over 60 s
// while it is polled every 2 s, as the tray does. Issue 18's targets, with 5 clients
// connected too (5 `blitz connect`, one per project, each having listed the tools, so each
// project runs its 20 servers): status p99 ≤ 2 ms, daemon CPU under the poll < 0.5 % of a core.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BlitzClient, readDaemonState } from '../packages/client/dist/index.js';
import { compare, report } from './stats.mjs';
import { connectClient, loadNote } from './harness.mjs';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 5);
const P99_BAR_MS = 2;
const CPU_BAR_PERCENT = 0.5;

const root = path.resolve(import.meta.dirname, '..');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-'));
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-ws-'));
const fixture = path.join(root, 'test', 'fixtures', 'env-dump.mjs');
const servers = Array.from({ length: 20 }, (_, i) => `[[mcp.servers]]\nname = "s${i}"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(fixture)}]\nsandbox = false\n`);
fs.writeFileSync(path.join(home, 'settings.toml'), `[daemon]\nport = 0\n\n${servers.join('\n')}`);

const daemon = spawn(process.execPath, [path.join(root, 'apps', 'cli', 'bin', 'blitz.js'), 'daemon'], { env: { ...process.env, BLITZ_HOME: home }, stdio: 'ignore' });
let state;
while (!(state = readDaemonState(home))) await new Promise((r) => setTimeout(r, 50));
const client = new BlitzClient(state);
const ws = await client.openWorkspace(workspace);
await client.listWorkspaceServers(ws.id, { connect: true });
const env = { ...process.env, BLITZ_HOME: home };
const projects = Array.from({ length: CLIENTS }, () => fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-project-')));
const clients = await Promise.all(
  projects.map(async (project) => {
    const c = await connectClient(project, env);
    await c.listTools();
    return c;
  }),
);

const get = (p) => () => fetch(`${client.baseUrl}${p}`, { headers: { authorization: `Bearer ${state.token}` } }).then((r) => r.text());
const STATUS = 'GET /v1/status';
const rows = await compare([['GET /v1/health (baseline)', get('/v1/health')], [STATUS, get('/v1/status')]], { total: 1000, concurrency: 1 });
report(`control API on loopback with 20 servers and ${CLIENTS} connected clients (${CLIENTS} projects), 1000 requests, sequential, median of 5 interleaved rounds (${loadNote()})`, rows, 'GET /v1/health (baseline)');
const p99 = rows.find(([n]) => n === STATUS)[1].p99;
console.log(`  verdict (status p99 ≤ ${P99_BAR_MS} ms): ${p99 <= P99_BAR_MS ? 'ok' : 'OVER'} (${p99.toFixed(3)} ms)`);

const seconds = Number(process.env.BENCH_SECONDS ?? 60);
// utime + stime of the daemon, in clock ticks (fields 14 and 15 of /proc/PID/stat).
const cpu = () => {
  const fields = fs.readFileSync(`/proc/${daemon.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const ticks = Number(process.env.CLK_TCK ?? 100);
const before = cpu();
const started = Date.now();
let after = 0;
while (Date.now() - started < seconds * 1000) {
  await client.status(after);
  after = (await client.status()).lastNoticeId;
  await new Promise((r) => setTimeout(r, 2000));
}
const used = (cpu() - before) / ticks;
const percent = (used / seconds) * 100;
console.log(`\ndaemon CPU time over ${seconds}s polled every 2s with 20 servers and ${CLIENTS} connected clients: ${(used * 1000).toFixed(0)} ms (${percent.toFixed(3)}% of one core; ${loadNote()})`);
console.log(`  verdict (< ${CPU_BAR_PERCENT} % of a core): ${percent < CPU_BAR_PERCENT ? 'ok' : 'OVER'}`);

await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
await client.shutdown();
await new Promise((r) => daemon.once('exit', r));
fs.rmSync(home, { recursive: true, force: true });
fs.rmSync(workspace, { recursive: true, force: true });
for (const project of projects) fs.rmSync(project, { recursive: true, force: true });
