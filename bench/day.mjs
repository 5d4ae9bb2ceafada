// Issue 32.3, "a day's use": 20 real stdio servers from npm (server-everything,
// server-filesystem, server-memory, server-sequential-thinking in turn), shared (`share = true`)
// by five clients, each a workspace of the daemon's own pool and managers, through a working day
// of calls, once with idle reaping ([hub] idle_timeout_seconds = 600, the default) and once
// without (0, the baseline), in one run. The day is compressed by the injected clock: the pool's
// clock (idle countdowns, breaker) is a FakeClock moved from call to call, while the servers are
// real processes started and stopped on real time (their start and stop deadlines use the
// system clock).
//
// The day: 09:00–18:00 with a lunch hour without calls; at 09:00 the five clients connect and
// list their tools (which starts every server, as a listing does). Calls come as a Poisson
// process per server, from a client drawn at random, at one of three rates, as a person's use
// spreads over their tools: 3 servers used all the time (a call every 4 minutes), 5 now and then
// (every 45 minutes), 12 seldom (every 3 hours). The same seeded day runs on both sides.
//
// Printed for each side: process-seconds (the servers' processes alive, in day time) and
// RSS-seconds (each process's RSS from /proc, taken when it stops or at the day's end, times how
// long it ran, in GB·h), the starts, and the real latency of calls that found their server up
// (warm) or had to start it (cold, the one slower call a reap costs). Then what reaping saves.
//
//   node bench/day.mjs     (BENCH_DAY_SEED=n draws another day; BENCH_IDLE_SECONDS=n another timeout)
import fs from 'node:fs';
import path from 'node:path';
import { FakeClock, systemClock } from '../packages/clock/dist/index.js';
import { createConnector, Manager, ServerPool } from '../packages/core/dist/index.js';
import { descendants, endLeftovers, loadNote, npmServers, tempDir, usage } from './harness.mjs';
import { percentile } from './stats.mjs';

const SERVERS = 20;
const CLIENTS = 5;
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 600);
const SEED = Number(process.env.BENCH_DAY_SEED ?? 32);
const HOUR = 3_600_000;
const DAY_MS = 9 * HOUR;
const LUNCH = [3 * HOUR, 4 * HOUR];
/** Mean minutes between calls, by server: 3 busy, 5 regular, 12 seldom. */
const MEAN_MINUTES = Array.from({ length: SERVERS }, (_, i) => (i < 3 ? 4 : i < 8 ? 45 : 180));

/** A small seeded PRNG (mulberry32): the same day on both sides and in every run. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The day's calls, in order: { at (ms into the day), server (index), client (index) }. */
function dayOfCalls() {
  const next = random(SEED);
  const calls = [];
  MEAN_MINUTES.forEach((mean, server) => {
    for (let at = 0; ;) {
      at += -Math.log(1 - next()) * mean * 60_000;
      if (at >= DAY_MS) break;
      if (at >= LUNCH[0] && at < LUNCH[1]) continue;
      calls.push({ at, server, client: Math.floor(next() * CLIENTS) });
    }
  });
  return calls.sort((a, b) => a.at - b.at);
}

/** A call each kind of server answers with no side effect worth having. */
function callOf(server) {
  if (server.name.startsWith('everything-')) return ['echo', { message: 'hi' }];
  if (server.name.startsWith('filesystem-')) return ['list_allowed_directories', {}];
  if (server.name.startsWith('memory-')) return ['read_graph', {}];
  return ['sequentialthinking', { thought: 'a step', nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 }];
}

const tmp = tempDir('blitz-bench-day-');
const files = path.join(tmp, 'files');
fs.mkdirSync(files);
const servers = npmServers(SERVERS, { files, memoryFile: path.join(tmp, 'memory.jsonl') });
const calls = dayOfCalls();

async function runDay(idleSeconds) {
  const clock = new FakeClock(0);
  const start = clock.now();
  const home = tempDir('blitz-bench-day-home-');
  /** Each server process's run: since when (day time), and the RSS last read. */
  const open = new Map();
  const totals = { processSeconds: 0, rssMbSeconds: 0, starts: 0 };
  const close = (connection) => {
    const run = open.get(connection);
    if (!run) return;
    open.delete(connection);
    const seconds = (clock.now() - run.since) / 1000;
    totals.processSeconds += seconds;
    totals.rssMbSeconds += usage([run.pid, ...descendants(run.pid)]).rssMb * seconds;
  };
  const pool = new ServerPool({
    connector: createConnector({ blitzHome: home, clock: systemClock, clientVersion: 'bench', warn: () => {} }),
    clock,
    home,
    idleTimeoutSeconds: () => idleSeconds,
    onEvent: ({ server, event }) => {
      if (event.type !== 'status') return;
      if (event.status.state === 'connected' && server.pid !== undefined && !open.has(server)) {
        open.set(server, { pid: server.pid, since: clock.now() });
        totals.starts++;
      } else if (event.status.state !== 'connected') close(server);
    },
  });
  const resolved = servers.map((s) => ({
    config: {
      name: s.name,
      transport: { kind: 'stdio', command: process.execPath, args: [s.script, ...s.args], env: s.env },
      prefix: s.name,
      autoApprove: true,
      sandbox: false,
      agents: [],
      timeoutSeconds: 60,
      startupTimeoutSeconds: 120,
      disabled: false,
      sampling: false,
      share: true,
      source: { kind: 'global', file: 'bench' },
    },
  }));
  const managers = [];
  for (let i = 0; i < CLIENTS; i++) {
    const workspace = path.join(tmp, `project-${idleSeconds}-${i}`);
    fs.mkdirSync(workspace);
    const manager = new Manager({ workspace, clock, connector: () => Promise.reject(new Error('the pool connects')), pool });
    await manager.update({ servers: resolved });
    managers.push(manager);
  }
  const warm = [];
  const cold = [];
  const t0 = performance.now();
  try {
    // 09:00: every client connects and lists its tools.
    await Promise.all(managers.map((m) => m.listTools()));
    for (const call of calls) {
      clock.advance(start + call.at - clock.now());
      const server = servers[call.server];
      const manager = managers[call.client];
      const [tool, args] = callOf(server);
      const wasUp = manager.connection(server.name).ready;
      const t = performance.now();
      const result = await manager.callTool(await manager.resolveTool('main', `${server.name}__${tool}`), args);
      if (result.isError) throw new Error(`${server.name} ${tool} failed: ${JSON.stringify(result.content)}`);
      (wasUp ? warm : cold).push(performance.now() - t);
    }
    clock.advance(start + DAY_MS - clock.now());
    for (const connection of [...open.keys()]) close(connection);
  } finally {
    await Promise.all(managers.map((m) => m.close()));
    fs.rmSync(home, { recursive: true, force: true });
  }
  return { ...totals, warm, cold, realSeconds: (performance.now() - t0) / 1000 };
}

let leftovers = 0;
let baseline;
let reaping;
try {
  baseline = await runDay(0);
  leftovers += endLeftovers();
  reaping = await runDay(IDLE_SECONDS);
  leftovers += endLeftovers();
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

const gbh = (mbSeconds) => mbSeconds / 1024 / 3600;
const ms = (list) =>
  list.length === 0
    ? '—'
    : percentile(
        [...list].sort((a, b) => a - b),
        50,
      ).toFixed(0);
console.log(
  `\na day's use: ${SERVERS} stdio servers from npm shared by ${CLIENTS} clients, ${calls.length} calls over 09:00–18:00 (lunch hour quiet), day seed ${SEED}, one run (${loadNote()})`,
);
console.log('  baseline: idle_timeout_seconds = 0 (never stopped); reaping: idle_timeout_seconds = ' + IDLE_SECONDS);
console.log('  side       process-hours   RSS GB·h   starts   warm call p50 ms   cold call p50 ms (count)   real s');
for (const [side, r] of [
  ['baseline', baseline],
  ['reaping', reaping],
]) {
  console.log(
    `  ${side.padEnd(9)} ${(r.processSeconds / 3600).toFixed(1).padStart(14)} ${gbh(r.rssMbSeconds).toFixed(2).padStart(10)} ${String(r.starts).padStart(8)} ${ms(r.warm).padStart(18)} ${`${ms(r.cold)} (${r.cold.length})`.padStart(26)} ${r.realSeconds.toFixed(0).padStart(8)}`,
  );
}
const saved = (a, b) => `${(100 * (1 - b / a)).toFixed(0)}% saved (${(b / a).toFixed(2)}× the baseline)`;
console.log(`  process-seconds: ${saved(baseline.processSeconds, reaping.processSeconds)}`);
console.log(`  RSS-seconds:     ${saved(baseline.rssMbSeconds, reaping.rssMbSeconds)}`);
console.log(
  `  the price: ${reaping.cold.length} of ${calls.length} calls started their server (p50 ${ms(reaping.cold)} ms against ${ms(reaping.warm)} ms warm)`,
);
if (leftovers) console.log(`  ${leftovers} process(es) were still running after the teardown and were ended`);
if (leftovers || !(reaping.processSeconds < baseline.processSeconds && reaping.rssMbSeconds < baseline.rssMbSeconds)) process.exitCode = 1;
