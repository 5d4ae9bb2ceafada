// Issue 4 and 18 benchmark: the tray's `GET /v1/status` with 20 configured (and connected)
// servers and 5 clients connected (5 `blitz connect`, one per project, each having listed the
// tools, so each project runs its 20 servers), against the same daemon's trivial
// `GET /v1/health`, in one run. Issue 18's targets: status p99 ≤ 2 ms, daemon CPU under the
// tray's 2 s poll < 0.5 % of a core.
//
// What it measures, interleaved (stats.mjs `compare`: 5 rounds, order rotated, 100 warm-up
// requests a round), each sequential as the tray asks:
// - health, and the status whole (what any client without a tag reads: the full body);
// - the status asked with the tag of the last one (If-None-Match: 304, no body), and the
//   status as the tray asks it: BlitzClient.status(after), which sends that tag and parses
//   the status it kept — the tray's own call;
// - the floors: the same health and status bytes from a plain node:http process
//   (canned-bytes.mjs), i.e. what an answer of that size costs on this machine with no daemon;
//   the status's tail above health's, less the floors' gap, is the daemon's own.
// With each: CPU µs per request by process (/proc), and the GCs of the daemon (--trace-gc)
// and of this client (perf_hooks) during its rounds. Then the same requests interleaved one
// by one (BENCH_MIXED of each, 5,000), so that a neighbour's burst of load on this shared
// machine lands on every variant alike — the p99 verdict is taken there, beside the floor's
// own p99 —, and spaced 10 ms apart (BENCH_SPACED, 300), one at a time with both processes
// idle in between, as the tray's poll finds them; then the daemon's CPU time over 60 s (BENCH_SECONDS) of the tray's poll: one
// BlitzClient.status(after) every 2 s.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { PerformanceObserver } from 'node:perf_hooks';
import { BlitzClient, readDaemonState } from '../packages/client/dist/index.js';
import { compare, percentile, report, reportCpu } from './stats.mjs';
import { connectClient, cpuByRole, cpuSeconds, endLeftovers, loadNote } from './harness.mjs';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 5);
const P99_BAR_MS = 2;
const CPU_BAR_PERCENT = 0.5;
const SPACED = Number(process.env.BENCH_SPACED ?? 300);
const MIXED = Number(process.env.BENCH_MIXED ?? 5000);

const root = path.resolve(import.meta.dirname, '..');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-'));
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-ws-'));
const fixture = path.join(root, 'test', 'fixtures', 'env-dump.mjs');
const servers = Array.from(
  { length: 20 },
  (_, i) =>
    `[[mcp.servers]]\nname = "s${i}"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(fixture)}]\nsandbox = false\n`,
);
fs.writeFileSync(path.join(home, 'settings.toml'), `[daemon]\nport = 0\n\n${servers.join('\n')}`);
const projects = Array.from({ length: CLIENTS }, () => fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-project-')));

/** The variant being measured now: the GCs heard meanwhile are counted to it. */
let measuring;
const gcs = { daemon: new Map(), client: new Map() };
const countGc = (side, ms) => {
  const seen = gcs[side].get(measuring) ?? { count: 0, ms: 0 };
  gcs[side].set(measuring, { count: seen.count + 1, ms: seen.ms + ms });
};

// --trace-gc prints a line a collection on the daemon's stdout (its log goes to its file).
const daemon = spawn(process.execPath, ['--trace-gc', path.join(root, 'apps', 'cli', 'bin', 'blitz.js'), 'daemon'], {
  env: { ...process.env, BLITZ_HOME: home },
  stdio: ['ignore', 'pipe', 'ignore'],
});
readline.createInterface({ input: daemon.stdout }).on('line', (line) => {
  const gc = /ms: (Scavenge|Mark-Compact|Mark-Sweep|Minor Mark-Sweep)\b.*? ([\d.]+) \/ [\d.]+ ms/.exec(line);
  if (gc && measuring) countGc('daemon', Number(gc[2]));
});
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (measuring) countGc('client', entry.duration);
}).observe({ entryTypes: ['gc'] });

let canned;
try {
  let state;
  while (!(state = readDaemonState(home))) await new Promise((r) => setTimeout(r, 50));
  const client = new BlitzClient(state);
  const ws = await client.openWorkspace(workspace);
  await client.listWorkspaceServers(ws.id, { connect: true });
  const env = { ...process.env, BLITZ_HOME: home };
  const clients = await Promise.all(
    projects.map(async (project) => {
      const c = await connectClient(project, env);
      await c.listTools();
      return c;
    }),
  );

  const auth = { authorization: `Bearer ${state.token}` };
  const whole = await fetch(`${client.baseUrl}/v1/status`, { headers: auth });
  const statusText = await whole.text();
  const etag = whole.headers.get('etag');
  const healthText = await (await fetch(`${client.baseUrl}/v1/health`, { headers: auth })).text();
  const status = JSON.parse(statusText);
  const copiesBytes = Buffer.byteLength(JSON.stringify(status.servers.map((s) => s.copies ?? [])));
  console.log(
    `status body: ${Buffer.byteLength(statusText)} bytes (${status.servers.length} servers, ${status.servers.reduce((n, s) => n + (s.copies?.length ?? 0), 0)} copies; their copies lists ${copiesBytes} bytes), health body ${Buffer.byteLength(healthText)} bytes; tag ${etag ?? 'none (a daemon before the status had one)'}`,
  );

  canned = spawn(process.execPath, [path.join(import.meta.dirname, 'canned-bytes.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  canned.stdin.write(`${JSON.stringify({ '/v1/health': healthText, '/v1/status': statusText })}\n`);
  const { port } = JSON.parse(await new Promise((r) => readline.createInterface({ input: canned.stdout }).once('line', r)));

  const get =
    (base, p, headers = auth) =>
    () =>
      fetch(`${base}${p}`, { headers }).then((r) => r.text());
  // The tray's client, counting how its asks were answered: a 200 after the first is a status that changed.
  const answered = new Map();
  const tray = new BlitzClient(state, {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      answered.set(response.status, (answered.get(response.status) ?? 0) + 1);
      return response;
    },
  });
  const trayAfter = status.lastNoticeId;
  const HEALTH = 'GET /v1/health (baseline)';
  const WHOLE = 'GET /v1/status, whole';
  const TRAY = 'GET /v1/status as the tray asks';
  const FLOOR_HEALTH = 'floor: health bytes, node:http';
  const FLOOR_STATUS = 'floor: status bytes, node:http';
  const variants = [
    [HEALTH, get(client.baseUrl, '/v1/health')],
    [WHOLE, get(client.baseUrl, '/v1/status')],
    ...(etag ? [['GET /v1/status, tag matches: 304', get(client.baseUrl, '/v1/status', { ...auth, 'if-none-match': etag })]] : []),
    [TRAY, () => tray.status(trayAfter)],
    [FLOOR_HEALTH, get(`http://127.0.0.1:${port}`, '/v1/health')],
    [FLOOR_STATUS, get(`http://127.0.0.1:${port}`, '/v1/status')],
  ].map(([name, call]) => [
    name,
    (i) => {
      measuring = name;
      return call(i);
    },
  ]);
  const role = (argv) =>
    argv.includes('daemon') && argv.some((a) => a.endsWith('blitz.js'))
      ? 'daemon'
      : argv.some((a) => a.endsWith('canned-bytes.mjs'))
        ? 'floor'
        : undefined;
  const rows = await compare(variants, { total: 1000, concurrency: 1, warmup: 100, cpu: () => cpuByRole(role) });
  measuring = undefined;
  report(
    `control API on loopback with 20 servers and ${CLIENTS} connected clients (${CLIENTS} projects), 1000 requests, sequential, after 100 to warm up, median of 5 interleaved rounds (${loadNote()})`,
    rows,
    HEALTH,
  );
  reportCpu(rows);
  console.log("  GCs during each variant's rounds (5 × 1,100 requests): daemon | this client");
  const gcText = (g) => (g ? `${String(g.count).padStart(3)} (${g.ms.toFixed(1).padStart(6)} ms)` : '  0');
  for (const [name] of rows) console.log(`  ${name.padEnd(34)} ${gcText(gcs.daemon.get(name))} | ${gcText(gcs.client.get(name))}`);
  console.log(
    `  the tray's asks were answered ${[...answered].map(([code, n]) => `${code} × ${n}`).join(', ')} (${etag ? 'a 200 after the first: the status changed meanwhile' : 'no tag: each read the whole status'})`,
  );

  /**
   * Each variant once in turn, order rotated, `count` times, `gapMs` apart (0: back to back):
   * every variant's requests are spread over the whole pass, so a neighbour's burst of load
   * lands on all of them alike, not on one variant's round. p50, p99 and max of each.
   */
  const interleaved = async (title, count, gapMs) => {
    const times = new Map(variants.map(([name]) => [name, []]));
    for (let i = 0; i < count; i++) {
      for (let k = 0; k < variants.length; k++) {
        const [name, call] = variants[(i + k) % variants.length];
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
        const t0 = performance.now();
        await call(i);
        times.get(name).push(performance.now() - t0);
      }
    }
    measuring = undefined;
    console.log(`\n${title} (${loadNote()})`);
    console.log(`  ${'variant'.padEnd(34)}   p50 ms   p99 ms   max ms`);
    const figures = new Map();
    for (const [name, ts] of times) {
      ts.sort((a, b) => a - b);
      figures.set(name, { p50: percentile(ts, 50), p99: percentile(ts, 99) });
      console.log(
        `  ${name.padEnd(34)} ${percentile(ts, 50).toFixed(3).padStart(8)} ${percentile(ts, 99).toFixed(3).padStart(8)} ${ts.at(-1).toFixed(3).padStart(8)}`,
      );
    }
    return figures;
  };
  const mixed = await interleaved(`the same, interleaved request by request: ${MIXED} of each, back to back`, MIXED, 0);
  // One request at a time, every 10 ms, both processes idle in between: as the tray's poll finds them.
  await interleaved(`the same, one request every 10 ms, ${SPACED} of each, rotated`, SPACED, 10);

  const tail = (name) => mixed.get(name).p99;
  console.log(
    `\n  status p99 above health's, interleaved request by request: whole ${(tail(WHOLE) - tail(HEALTH)).toFixed(3)} ms, as the tray asks ${(tail(TRAY) - tail(HEALTH)).toFixed(3)} ms; the floors' own gap ${(tail(FLOOR_STATUS) - tail(FLOOR_HEALTH)).toFixed(3)} ms`,
  );
  console.log(
    `  verdict (status p99 ≤ ${P99_BAR_MS} ms, as the tray asks, interleaved): ${tail(TRAY) <= P99_BAR_MS ? 'ok' : 'OVER'} (${tail(TRAY).toFixed(3)} ms; whole, as a client without the tag: ${tail(WHOLE).toFixed(3)} ms ${tail(WHOLE) <= P99_BAR_MS ? 'ok' : 'OVER'}; the machine's floor for these bytes: ${tail(FLOOR_STATUS).toFixed(3)} ms)`,
  );

  const seconds = Number(process.env.BENCH_SECONDS ?? 60);
  const before = cpuSeconds(daemon.pid);
  const started = Date.now();
  // The tray's loop (tray-app.ts): one status after its notice cursor every 2 s.
  let after = status.lastNoticeId;
  while (Date.now() - started < seconds * 1000) {
    after = (await tray.status(after)).lastNoticeId;
    await new Promise((r) => setTimeout(r, 2000));
  }
  const used = cpuSeconds(daemon.pid) - before;
  const percent = (used / seconds) * 100;
  console.log(
    `\ndaemon CPU time over ${seconds}s polled every 2s as the tray does, with 20 servers and ${CLIENTS} connected clients: ${(used * 1000).toFixed(0)} ms (${percent.toFixed(3)}% of one core; ${loadNote()})`,
  );
  console.log(`  verdict (< ${CPU_BAR_PERCENT} % of a core): ${percent < CPU_BAR_PERCENT ? 'ok' : 'OVER'}`);

  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await client.shutdown();
} finally {
  const exited = (child) => new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
  if (canned) {
    canned.stdin.end();
    await exited(canned);
  }
  if (daemon.exitCode === null) daemon.kill('SIGTERM');
  await exited(daemon);
  const left = endLeftovers();
  if (left) console.log(`  (${left} processes were left and ended)`);
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
  for (const project of projects) fs.rmSync(project, { recursive: true, force: true });
}
