// Issue 18, "what one hub saves": five clients, each in a project of its own, use N real stdio
// servers from npm (server-everything, server-filesystem, server-memory and
// server-sequential-thinking, in turn). Measured in one run, for N = 5 and N = 20:
//   - direct: each client spawns its own copy of every server (5 × N processes), as clients
//     configured one by one do;
//   - Blitz: the five clients are five `blitz connect` processes (one per project) to one
//     running daemon, every server with `share = true`, so one copy serves all five.
// For each side: the processes this benchmark started (the servers, or the daemon, its
// servers and the five `blitz connect`) and the sum of their RSS and PSS from /proc, taken when
// all five clients have listed their tools; and the time from the clients' start until all
// five have listed them (each server has its name as its tools' prefix, as copies of one
// package offer the same tool names; the daemon is already running: its own start is printed apart, and
// bench/cold-start.mjs measures a start with none). Both sides and the ratio are printed.
//
//   node bench/savings.mjs     (BENCH_SIZES=5,20 changes the sizes)
import fs from 'node:fs';
import path from 'node:path';
import {
  connectClient,
  descendants,
  endLeftovers,
  envLine,
  loadNote,
  npmServers,
  serverEntry,
  startDaemon,
  stdioClient,
  tempDir,
  toml,
  usage,
  within,
} from './harness.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '5,20').split(',').map(Number);
const CLIENTS = 5;
const SIDE_TIMEOUT_MS = 300_000;

const tmp = tempDir('blitz-bench-savings-');
const projects = Array.from({ length: CLIENTS }, (_, i) => {
  const dir = path.join(tmp, `project-${i}`);
  fs.mkdirSync(dir);
  return dir;
});
const files = path.join(tmp, 'files');
fs.mkdirSync(files);
const serversOf = (n) => npmServers(n, { files, memoryFile: path.join(tmp, 'memory.jsonl') });

/** Waits for this process's children to end (bounded); ends and counts any still there. */
async function reaped() {
  for (const deadline = Date.now() + 10_000; descendants(process.pid).length && Date.now() < deadline;)
    await new Promise((r) => setTimeout(r, 100));
  return endLeftovers();
}

async function direct(servers) {
  const clients = [];
  const t0 = performance.now();
  let tools = 0;
  try {
    await within(
      SIDE_TIMEOUT_MS,
      'direct clients listing tools',
      Promise.all(
        projects.map(async (cwd, c) => {
          let count = 0;
          await Promise.all(
            servers.map(async (s) => {
              const client = await stdioClient(process.execPath, [s.script, ...s.args], { cwd, env: { ...process.env, ...s.env } });
              clients.push(client);
              const { tools: listed } = await client.listTools();
              count += listed.length;
            }),
          );
          if (c === 0) tools = count;
        }),
      ),
    );
    const ms = performance.now() - t0;
    return { ms, tools, ...usage(descendants(process.pid)) };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  }
}

async function throughBlitz(servers) {
  const home = path.join(tmp, `home-${servers.length}`);
  fs.mkdirSync(home);
  // deferred = "never": each client's list carries every server's tools, as the direct side's do (with auto, 20 servers' 185 tools would be deferred behind search_tools).
  const settings = `[hub]\ndeferred = "never"\n\n${servers
    .map((s) =>
      serverEntry(s.name, s.script, s.args, `share = true\nprefix = ${toml(s.name)}\nstartup_timeout_seconds = 120\n${envLine(s.env)}`),
    )
    .join('\n')}`;
  const t = performance.now();
  const daemon = await startDaemon(home, settings);
  const daemonStartMs = performance.now() - t;
  const clients = [];
  try {
    const t0 = performance.now();
    const counts = await within(
      SIDE_TIMEOUT_MS,
      'blitz connect clients listing tools',
      Promise.all(
        projects.map(async (project) => {
          const client = await connectClient(project, daemon.env);
          clients.push(client);
          return (await client.listTools()).tools.length;
        }),
      ),
    );
    const ms = performance.now() - t0;
    return { ms, tools: counts[0], daemonStartMs, ...usage(descendants(process.pid)) };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await daemon.stop();
  }
}

const rows = [];
let leftovers = 0;
try {
  for (const n of SIZES) {
    const servers = serversOf(n);
    const d = await direct(servers);
    leftovers += await reaped();
    const b = await throughBlitz(servers);
    leftovers += await reaped();
    rows.push({ n, d, b });
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

console.log(`\nwhat one hub saves: ${CLIENTS} clients in ${CLIENTS} projects, N stdio servers from npm, one run (${loadNote()})`);
console.log(
  '  direct: each client spawns its own copy of each server; Blitz: 5 blitz connect to one daemon (already running), share = true',
);
console.log('   N  side      processes   RSS MB   PSS MB   all listed ms   tools/client');
const fmt = (n, side, r) =>
  `  ${String(n).padStart(2)}  ${side.padEnd(8)} ${String(r.processes).padStart(10)} ${r.rssMb.toFixed(0).padStart(8)} ${r.pssMb.toFixed(0).padStart(8)} ${r.ms.toFixed(0).padStart(15)} ${String(r.tools).padStart(14)}`;
let saves = true;
for (const { n, d, b } of rows) {
  console.log(fmt(n, 'direct', d));
  console.log(fmt(n, 'Blitz', b));
  console.log(
    `      direct / Blitz: processes ${(d.processes / b.processes).toFixed(2)}×, RSS ${(d.rssMb / b.rssMb).toFixed(2)}×, PSS ${(d.pssMb / b.pssMb).toFixed(2)}×; time to all listed, Blitz / direct: ${(b.ms / d.ms).toFixed(2)}× (the daemon's own start: ${b.daemonStartMs.toFixed(0)} ms)`,
  );
  if (!(b.processes < d.processes && b.rssMb < d.rssMb)) saves = false;
}
console.log(
  '  (tools/client differs: server-everything offers more tools to a client that can answer roots, sampling and elicitation, as the daemon can, and Blitz adds its two resource tools)',
);
console.log(`  verdict: one hub ${saves ? 'saves' : 'does NOT save'} processes and memory at every N`);
if (leftovers) console.log(`  ${leftovers} process(es) were still running after the teardown and were ended`);
if (leftovers) process.exitCode = 1;
