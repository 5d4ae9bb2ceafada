// Issue 18, cold start: from spawning `blitz connect` with no daemon running (it starts one)
// to the client's first `tools/list` answer, with 10 real stdio servers from npm configured —
// against the slowest of those servers' own start (spawn, initialize and tools/list over a
// direct SDK stdio connection, each server alone), measured in the same run. Each of the 5
// runs measures every server alone, all of them at once, then the cold start twice: with no
// catalog cache (state/catalog-cache.json deleted: the first tools/list waits for the servers,
// up to [hub] list_wait_ms) and with the cache the previous daemon wrote (it answers while the
// servers start). The daemon is stopped after each. The very first cold start (no cache, files
// read from disk for the first time) is printed apart.
// Target: the median cached cold start at most the median slowest server + 300 ms; the uncached
// median is printed beside it, with its own comparison. Shown for information too: all 10
// started at once directly (what starting them together costs this machine before any hub is
// involved), and the cached cold start of the installed package (what users run: the bundle,
// packed and installed into a temporary prefix first).
//
//   node bench/cold-start.mjs     (BENCH_ROUNDS=5 changes the number of runs)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '../packages/process/dist/index.js';
import { readDaemonState } from '../packages/client/dist/index.js';
import {
  blitz,
  connectClient,
  endLeftovers,
  envLine,
  installPackage,
  loadNote,
  median,
  npmServers,
  serverEntry,
  stdioClient,
  tempDir,
  toml,
  within,
} from './harness.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SERVERS = 10;
const MARGIN_MS = 300;
const RUN_TIMEOUT_MS = 120_000;

const tmp = tempDir('blitz-bench-cold-');
const home = path.join(tmp, 'home');
const workspace = path.join(tmp, 'project');
const files = path.join(tmp, 'files');
for (const dir of [home, workspace, files]) fs.mkdirSync(dir);
const servers = npmServers(SERVERS, { files, memoryFile: path.join(tmp, 'memory.jsonl') });
// deferred = "never": the first tools/list carries every server's tools (not search_tools in their place), so its count shows whether the servers were listed.
fs.writeFileSync(
  path.join(home, 'settings.toml'),
  `[daemon]\nport = 0\n\n[hub]\ndeferred = "never"\n\n${servers.map((s) => serverEntry(s.name, s.script, s.args, `prefix = ${toml(s.name)}\n${envLine(s.env)}`)).join('\n')}`,
);
const env = { ...process.env, BLITZ_HOME: home };
const cacheFile = path.join(home, 'state', 'catalog-cache.json');

/** One server alone, directly: ms from spawn to its tools/list answer. */
async function alone(s) {
  const t0 = performance.now();
  const client = await stdioClient(process.execPath, [s.script, ...s.args], { cwd: workspace, env: { ...process.env, ...s.env } });
  try {
    await client.listTools();
    return performance.now() - t0;
  } finally {
    await client.close();
  }
}

/** All servers at once, directly: ms from the first spawn to the last tools/list answer. */
async function allAtOnce() {
  const t0 = performance.now();
  await Promise.all(servers.map((s) => alone(s)));
  return performance.now() - t0;
}

/**
 * `blitz connect` (the workspace's, or `command`) with no daemon: ms from spawn to the first
 * tools/list answer, and its tool count. `cached`: with the catalog cache the last daemon wrote; without, none.
 */
async function coldStart({ command, cached }) {
  if (readDaemonState(home)) throw new Error('a daemon is still running in the benchmark home');
  if (!cached) fs.rmSync(cacheFile, { force: true });
  else if (!fs.existsSync(cacheFile)) throw new Error(`no catalog cache at ${cacheFile} for a cached cold start`);
  const t0 = performance.now();
  const client = await connectClient(workspace, env, command);
  try {
    const { tools } = await client.listTools();
    return { ms: performance.now() - t0, tools: tools.length };
  } finally {
    await client.close();
    await stopDaemon();
  }
}

async function stopDaemon() {
  const state = readDaemonState(home);
  execFileSync(process.execPath, [blitz, 'daemon', 'stop'], { env, stdio: 'ignore', timeout: 30_000 });
  for (const deadline = Date.now() + 15_000; state && isProcessAlive(state.pid);) {
    if (Date.now() > deadline) throw new Error(`the daemon (pid ${state.pid}) did not stop`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// What users run: the package's bundle, installed (its CLI and daemon load far less than dist/).
console.log('packing and installing the package into a temporary prefix…');
const installed = installPackage(tmp);

const slowest = [];
const slowestName = [];
const uncached = [];
const colds = [];
const installedColds = [];
const together = [];
let tools = 0;
let uncachedTools = 0;
try {
  for (let r = 0; r < ROUNDS; r++) {
    let worst = 0;
    let worstName = '';
    for (const s of servers) {
      const ms = await within(RUN_TIMEOUT_MS, `${s.name} alone`, alone(s));
      if (ms > worst) [worst, worstName] = [ms, s.name];
    }
    slowest.push(worst);
    slowestName.push(worstName);
    together.push(await within(RUN_TIMEOUT_MS, 'all servers at once', allAtOnce()));
    const first = await within(RUN_TIMEOUT_MS, 'blitz connect from cold, no catalog cache', coldStart({ cached: false }));
    uncached.push(first.ms);
    uncachedTools = first.tools;
    const cold = await within(RUN_TIMEOUT_MS, 'blitz connect from cold, catalog cache', coldStart({ cached: true }));
    colds.push(cold.ms);
    tools = cold.tools;
    installedColds.push(
      (
        await within(
          RUN_TIMEOUT_MS,
          'the installed blitz connect from cold, catalog cache',
          coldStart({ command: installed.blitz, cached: true }),
        )
      ).ms,
    );
  }
} finally {
  if (readDaemonState(home)) await stopDaemon().catch(() => undefined);
  fs.rmSync(tmp, { recursive: true, force: true });
}
const leftovers = endLeftovers();

const slow = median(slowest);
const cold = median(colds);
const cold0 = median(uncached);
const ok = cold <= slow + MARGIN_MS;
console.log(`\ncold start with ${SERVERS} stdio servers from npm, median of ${ROUNDS} runs (${loadNote()})`);
console.log(
  `  slowest server alone (spawn → tools/list, direct SDK stdio): ${slow.toFixed(0)} ms  (each run: ${slowest.map((ms, i) => `${ms.toFixed(0)} ${slowestName[i]}`).join(', ')})`,
);
console.log(
  `  all ${SERVERS} at once, direct (information): ${median(together).toFixed(0)} ms  (each run: ${together.map((ms) => ms.toFixed(0)).join(', ')})`,
);
console.log(`  the very first cold start (no catalog cache, nothing read from disk before): ${uncached[0].toFixed(0)} ms`);
console.log(
  `  blitz connect, no daemon running, no catalog cache → first tools/list (${uncachedTools} tools): ${cold0.toFixed(0)} ms  (each run: ${uncached.map((ms) => ms.toFixed(0)).join(', ')})`,
);
console.log(
  `  blitz connect, no daemon running, catalog cache → first tools/list (${tools} tools): ${cold.toFixed(0)} ms  (each run: ${colds.map((ms) => ms.toFixed(0)).join(', ')})`,
);
console.log(
  `  the same with the installed package (its bundle; information): ${median(installedColds).toFixed(0)} ms  (each run: ${installedColds.map((ms) => ms.toFixed(0)).join(', ')})`,
);
// Without the cache the first tools/list waits for every server ([hub] list_wait_ms), so all of them starting at once on this machine is its floor.
console.log(
  `  no cache: cold start − slowest server ${(cold0 - slow).toFixed(0)} ms (ratio ${(cold0 / slow).toFixed(2)}×); − all ${SERVERS} at once ${(cold0 - median(together)).toFixed(0)} ms (ratio ${(cold0 / median(together)).toFixed(2)}×)`,
);
console.log(`  catalog cache: cold start − slowest server ${(cold - slow).toFixed(0)} ms; ratio ${(cold / slow).toFixed(2)}×`);
if (tools !== uncachedTools) console.log(`  NOTE: the cached first tools/list had ${tools} tools, the uncached one ${uncachedTools}`);
console.log(
  `  verdict, catalog cache (≤ slowest + ${MARGIN_MS} ms): ${ok ? 'ok' : 'OVER'}; without it: ${cold0 <= slow + MARGIN_MS ? 'ok' : 'OVER'} (information)`,
);
if (leftovers) console.log(`  ${leftovers} process(es) were still running after the teardown and were ended`);
if (leftovers) process.exitCode = 1;
