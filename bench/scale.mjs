// Issue 32.3: the daemon at scale, each figure beside its baseline from the same run. 50 stdio
// servers of 20 tools (1,000 tools, bench/tools-server.mjs) in one project, 10 clients on it:
// 5 `blitz connect` and 5 on `/mcp`. It prints
// - the daemon's own memory (RSS of its process, its servers not counted) against a daemon
//   with no server and no client;
// - `GET /v1/status` p50/p99 against `GET /v1/health`;
// - the daemon's CPU under the tray's poll (status(after) every 2 s) against the same daemon
//   idle for as long;
// - `tools/list` of all 1,000 tools p50/p99 over each hub path against one server listing
//   1,000 tools straight to the client;
// - `search_tools` p50/p99 over 1,000 tools against a `tools/call` of `echo` on the same path;
// - the daemon's memory per idle session (5 batches of 200 sessions that only initialized).
// BENCH_SERVERS, BENCH_TOOLS (a server), BENCH_CALLS, BENCH_SECONDS, BENCH_SESSIONS change the sizes.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BlitzClient } from '../packages/client/dist/index.js';
import { blitz, cpuSeconds, endLeftovers, loadNote, startDaemon, tempDir, toml } from './harness.mjs';
import { measure } from './stats.mjs';

const SERVERS = Number(process.env.BENCH_SERVERS ?? 50);
const TOOLS = Number(process.env.BENCH_TOOLS ?? 20);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 200);
const CLIENTS_PER_PATH = 5;
const server = path.join(import.meta.dirname, 'tools-server.mjs');

/** The clientInfo names: one listed every tool, one the hub gives search_tools past [hub] max_tools. */
const DIRECT = 'scale-direct';
const SEARCHING = 'scale-search';
const settings = [
  `[hub]\nlist_wait_ms = 30000\n\n[hub.clients."${DIRECT}"]\ndeferred = "never"\n`,
  ...Array.from(
    { length: SERVERS },
    (_, i) =>
      `[[mcp.servers]]\nname = "s${i}"\nprefix = "s${i}"\ncommand = ${toml(process.execPath)}\nargs = ${toml([server])}\nsandbox = false\nauto_approve = true\nenv = { TOOLS = "${TOOLS}", SERVER_NAME = "s${i}" }\n`,
  ),
].join('\n');

const rssMb = (pid) => Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const ms = (x) => x.toFixed(3).padStart(8);
const row = (name, r, base) =>
  console.log(
    `  ${name.padEnd(54)} ${ms(r.p50)} ${ms(r.p99)} ${base ? `${(r.p50 / base.p50).toFixed(2).padStart(8)}× ${(r.p99 / base.p99).toFixed(2).padStart(6)}×` : ''}`,
  );
const header = (title) => console.log(`\n${title} (${loadNote()})\n  ${'variant'.padEnd(54)}   p50 ms   p99 ms   p50 ratio p99 ratio`);

async function mcpClient(transport, name) {
  const client = new Client({ name, version: '1' });
  await client.connect(transport);
  return client;
}
const overHttp = (state, workspace, name) =>
  mcpClient(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${state.port}/mcp?workspace=${encodeURIComponent(workspace)}`), {
      requestInit: { headers: { authorization: `Bearer ${state.token}` } },
    }),
    name,
  );
const overConnect = (env, workspace, name) =>
  mcpClient(
    new StdioClientTransport({ command: process.execPath, args: [blitz, 'connect', '--workspace', workspace], env, stderr: 'ignore' }),
    name,
  );

const empty = await startDaemon(tempDir('blitz-scale-empty-'), '');
const home = tempDir('blitz-scale-');
const workspace = tempDir('blitz-scale-ws-');
const daemon = await startDaemon(home, settings);
const opened = [];
try {
  const api = new BlitzClient(daemon.state);
  const started = Date.now();
  const clients = await Promise.all(
    Array.from({ length: CLIENTS_PER_PATH * 2 }, async (_, i) => {
      const client =
        i < CLIENTS_PER_PATH ? await overConnect(daemon.env, workspace, DIRECT) : await overHttp(daemon.state, workspace, DIRECT);
      opened.push(client);
      const { tools } = await client.listTools();
      return { client, via: i < CLIENTS_PER_PATH ? 'blitz connect' : '/mcp', tools: tools.length };
    }),
  );
  console.log(
    `${SERVERS} servers × ${TOOLS} tools, ${clients.length} clients (${CLIENTS_PER_PATH} blitz connect, ${CLIENTS_PER_PATH} /mcp) in one project: every client listed ${clients[0].tools} tools, all up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  console.log(`\ndaemon memory, its servers not counted (${loadNote()})`);
  console.log(`  a daemon with no server, no client:           ${rssMb(empty.child.pid).toFixed(1).padStart(7)} MB RSS (baseline)`);
  const busyRss = rssMb(daemon.child.pid);
  console.log(
    `  this daemon, ${SERVERS} servers and ${clients.length} clients:        ${busyRss.toFixed(1).padStart(7)} MB RSS (${(busyRss / rssMb(empty.child.pid)).toFixed(2)}×)`,
  );

  header(`control API, ${CALLS * 5} sequential requests`);
  const auth = { authorization: `Bearer ${daemon.state.token}` };
  const get = (p) => () => fetch(`${api.baseUrl}${p}`, { headers: auth }).then((r) => r.text());
  const health = await measure(get('/v1/health'), { total: CALLS * 5, warmup: 100 });
  const status = await measure(get('/v1/status'), { total: CALLS * 5, warmup: 100 });
  row('GET /v1/health (baseline)', health);
  row(`GET /v1/status (${SERVERS} servers)`, status, health);

  const idleBefore = cpuSeconds(daemon.child.pid);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const idleCpu = cpuSeconds(daemon.child.pid) - idleBefore;
  const { lastNoticeId } = await api.status();
  const pollBefore = cpuSeconds(daemon.child.pid);
  for (let t = 0; t < SECONDS; t += 2) {
    await api.status(lastNoticeId);
    await new Promise((r) => setTimeout(r, 2000));
  }
  const pollCpu = cpuSeconds(daemon.child.pid) - pollBefore;
  console.log(`\ndaemon CPU over ${SECONDS} s (${loadNote()})`);
  console.log(`  idle (baseline):                 ${((100 * idleCpu) / SECONDS).toFixed(3).padStart(7)} % of a core`);
  console.log(`  under the tray's 2 s poll:       ${((100 * pollCpu) / SECONDS).toFixed(3).padStart(7)} % of a core`);

  const direct = await mcpClient(
    new StdioClientTransport({ command: process.execPath, args: [server], env: { TOOLS: String(SERVERS * TOOLS) }, stderr: 'ignore' }),
    'bench',
  );
  opened.push(direct);
  header(`tools/list of ${SERVERS * TOOLS} tools, ${CALLS} sequential`);
  const baseline = await measure(() => direct.listTools(), { total: CALLS, warmup: 20 });
  row(`one server listing ${SERVERS * TOOLS} tools, straight (baseline)`, baseline);
  for (const via of ['blitz connect', '/mcp']) {
    const { client } = clients.find((c) => c.via === via);
    row(`through ${via}`, await measure(() => client.listTools(), { total: CALLS, warmup: 20 }), baseline);
  }

  header(`search_tools over ${SERVERS * TOOLS} tools against a call of echo, ${CALLS} sequential`);
  const QUERIES = ['archive an invoice', 'find messages by words', 'delete a branch', 'share a page with someone', 'export contacts'];
  for (const via of ['blitz connect', '/mcp']) {
    const client =
      via === '/mcp' ? await overHttp(daemon.state, workspace, SEARCHING) : await overConnect(daemon.env, workspace, SEARCHING);
    opened.push(client);
    await client.listTools();
    const call = await measure(() => client.callTool({ name: 'call_tool', arguments: { name: 's0__echo', arguments: { text: 'hi' } } }), {
      total: CALLS,
      warmup: 20,
    });
    const search = await measure((i) => client.callTool({ name: 'search_tools', arguments: { query: QUERIES[i % QUERIES.length] } }), {
      total: CALLS,
      warmup: 20,
    });
    row(`call_tool s0__echo through ${via} (baseline)`, call);
    row(`search_tools through ${via}`, search, call);
  }

  // RSS moves with the heap's collections: the slope over five batches says what a session keeps.
  const points = [[0, rssMb(daemon.child.pid)]];
  for (let batch = 1; batch <= 5; batch++) {
    for (let i = 0; i < SESSIONS; i++) opened.push(await overHttp(daemon.state, workspace, `idle-${batch}-${i}`));
    await new Promise((r) => setTimeout(r, 1000));
    points.push([batch * SESSIONS, rssMb(daemon.child.pid)]);
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const mx = mean(points.map(([x]) => x));
  const my = mean(points.map(([, y]) => y));
  const slope = points.reduce((n, [x, y]) => n + (x - mx) * (y - my), 0) / points.reduce((n, [x]) => n + (x - mx) ** 2, 0);
  console.log(`\nmemory per idle session (${loadNote()})`);
  console.log(
    `  daemon RSS with 0, ${SESSIONS}, … ${5 * SESSIONS} more /mcp sessions that only initialized: ${points.map(([, y]) => y.toFixed(0)).join(', ')} MB`,
  );
  console.log(
    `  ${(1024 * slope).toFixed(1)} KB a session (the least-squares slope; baseline: the daemon before them, ${points[0][1].toFixed(1)} MB)`,
  );
} finally {
  await Promise.allSettled(opened.map((c) => c.close()));
  await daemon.stop();
  await empty.stop();
  const left = endLeftovers();
  if (left > 0) console.log(`(ended ${left} processes left behind)`);
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
}
