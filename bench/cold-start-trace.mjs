// Issue 18, cold start, diagnostics (no verdict): where the time goes from spawning
// `blitz connect` with no daemon running to the client's first tools/list answer, with the
// 10 stdio servers of cold-start.mjs and the catalog cache a first (untimed) run wrote. Each
// run prints its timeline, ms since the spawn: the CLI's process start, its spawn of the
// daemon, the daemon's process start and listen, the state file seen, initialize and
// tools/list answered, the daemon's first server spawn; and the CPU the CLI and the daemon
// had used when initialize was answered (/proc). The medians of each step come last.
// The processes are traced through bench/trace-hook.mjs (NODE_OPTIONS=--import).
//
//   node bench/cold-start-trace.mjs     (BENCH_ROUNDS=5 changes the number of runs)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '../packages/process/dist/index.js';
import { readDaemonState } from '../packages/client/dist/index.js';
import { blitz, connectClient, envLine, median, npmServers, serverEntry, tempDir, toml, loadNote } from './harness.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const tmp = tempDir('blitz-bench-trace-');
const home = path.join(tmp, 'home');
const workspace = path.join(tmp, 'project');
const files = path.join(tmp, 'files');
for (const dir of [home, workspace, files]) fs.mkdirSync(dir);
const servers = npmServers(10, { files, memoryFile: path.join(tmp, 'memory.jsonl') });
fs.writeFileSync(
  path.join(home, 'settings.toml'),
  `[daemon]\nport = 0\n\n[hub]\ndeferred = "never"\n\n${servers.map((s) => serverEntry(s.name, s.script, s.args, `prefix = ${toml(s.name)}\n${envLine(s.env)}`)).join('\n')}`,
);
const traceFile = path.join(tmp, 'trace.txt');
const hook = path.join(import.meta.dirname, 'trace-hook.mjs');
const env = {
  ...process.env,
  BLITZ_HOME: home,
  BLITZ_TRACE_FILE: traceFile,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${hook}`.trim(),
};
const now = () => performance.timeOrigin + performance.now();
/** CPU ms (user + system) a process has used, from /proc (Linux). */
const cpuMs = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
};

async function stopDaemon() {
  const state = readDaemonState(home);
  execFileSync(process.execPath, [blitz, 'daemon', 'stop'], {
    env: { ...process.env, BLITZ_HOME: home },
    stdio: 'ignore',
    timeout: 30_000,
  });
  for (const deadline = Date.now() + 15_000; state && isProcessAlive(state.pid);) {
    if (Date.now() > deadline) throw new Error(`the daemon (pid ${state.pid}) did not stop`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One cold start: its events, ms since the spawn, and the CPU used by then. */
async function run() {
  fs.writeFileSync(traceFile, '');
  const marks = [];
  const t0 = now();
  const poll = setInterval(() => {
    if (!readDaemonState(home)) return;
    marks.push([now(), 'bench state file seen']);
    clearInterval(poll);
  }, 2);
  const client = await connectClient(workspace, env);
  marks.push([now(), 'bench initialize answered']);
  clearInterval(poll);
  const cpu = { cli: cpuMs(client.transport.pid), daemon: cpuMs(readDaemonState(home).pid) };
  await client.listTools();
  const t1 = now();
  marks.push([t1, 'bench tools/list answered']);
  // Long enough for the daemon's first server spawn (start-soon.ts: once the listings pause).
  await new Promise((r) => setTimeout(r, 1_500));
  await client.close();
  await stopDaemon();
  const traced = fs
    .readFileSync(traceFile, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [at, ...what] = line.split(' ');
      return [Number(at), what.join(' ')];
    });
  const events = [...traced, ...marks].sort((a, b) => a[0] - b[0]).map(([at, what]) => [at - t0, what]);
  return { total: t1 - t0, events, cpu };
}

const runs = [];
try {
  await run(); // writes the catalog cache
  for (let r = 0; r < ROUNDS; r++) runs.push(await run());
} finally {
  if (readDaemonState(home)) await stopDaemon().catch(() => undefined);
  fs.rmSync(tmp, { recursive: true, force: true });
}

console.log(`cold start traced, catalog cache, 10 stdio servers, ${ROUNDS} runs (${loadNote()})`);
runs.forEach(({ total, events, cpu }, i) => {
  console.log(
    `run ${i + 1}: ${total.toFixed(0)} ms to the first tools/list; CPU by initialize: cli ${cpu.cli} ms, daemon ${cpu.daemon} ms`,
  );
  for (const [ms, what] of events) console.log(`  ${ms.toFixed(0).padStart(6)}  ${what}`);
});
const names = [...new Set(runs.flatMap((r) => r.events.map(([, what]) => what)))];
console.log('medians, ms since the spawn:');
for (const what of names) {
  const at = runs.map((r) => r.events.find(([, w]) => w === what)?.[0]).filter((ms) => ms !== undefined);
  console.log(`  ${median(at).toFixed(0).padStart(6)}  ${what}  (${at.length} of ${runs.length} runs)`);
}
console.log(`  CPU by initialize: cli ${median(runs.map((r) => r.cpu.cli))} ms, daemon ${median(runs.map((r) => r.cpu.daemon))} ms`);
