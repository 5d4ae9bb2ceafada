// A change's before/after on the hub's two paths, in one run: `tools/call echo` on
// server-everything through `/mcp` and through `blitz connect`, of this checkout's daemon and
// of another built checkout's (`BENCH_BASE=<its root>`, e.g. a `git worktree add --detach`
// of the commit before the change, with `npx turbo run build` run in it), each with its own
// home and its own server-everything. The four variants run interleaved, the order rotated
// each round (stats.mjs compare), 1 and 16 in flight; each row's CPU per call by process
// (from /proc) shows the daemon's, the figure a change to the daemon moves. Not in
// `npm run bench`: it needs the other build, and it gives figures, no verdict.
// BENCH_CALLS (1000), BENCH_ROUNDS (7) and BENCH_CONCURRENCY ("1,16") change the run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  blitz,
  cpuByRole,
  daemonState,
  everything,
  httpClient,
  root,
  endLeftovers,
  serverEntry,
  stdioClient,
  tempDir,
} from './harness.mjs';
import { compare, report, reportCpu } from './stats.mjs';

if (!process.env.BENCH_BASE) {
  console.error('BENCH_BASE=<the root of another built checkout> is needed: the build to compare this one with');
  process.exit(2);
}
const TOTAL = Number(process.env.BENCH_CALLS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const baseRoot = path.resolve(process.env.BENCH_BASE);
const builds = [
  ['base', path.join(baseRoot, 'apps', 'cli', 'bin', 'blitz.js')],
  ['this', blitz],
];
if (baseRoot === root) throw new Error('BENCH_BASE is this checkout');

const daemons = new Map();
try {
  for (const [tag, bin] of builds) {
    const home = tempDir('blitz-bench-');
    const workspace = tempDir('blitz-bench-ws-');
    fs.writeFileSync(path.join(home, 'settings.toml'), `[daemon]\nport = 0\n\n${serverEntry('everything', everything, ['stdio'])}`);
    const env = { ...process.env, BLITZ_HOME: home };
    const child = spawn(process.execPath, [bin, 'daemon'], { env, stdio: 'ignore' });
    const state = await daemonState(home);
    const overHttp = await httpClient(`http://127.0.0.1:${state.port}/mcp?workspace=${encodeURIComponent(workspace)}`, state.token);
    const bridged = await stdioClient(process.execPath, [bin, 'connect', '--workspace', workspace], { env });
    await overHttp.listTools();
    await bridged.listTools();
    daemons.set(tag, { home, workspace, child, overHttp, bridged });
  }

  const call = (client) => (i) => client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
  for (const concurrency of (process.env.BENCH_CONCURRENCY ?? '1,16').split(',').map(Number)) {
    const rows = await compare(
      builds.flatMap(([tag]) => [
        [`${tag}: /mcp`, call(daemons.get(tag).overHttp)],
        [`${tag}: blitz connect`, call(daemons.get(tag).bridged)],
      ]),
      { total: TOTAL, concurrency, rounds: ROUNDS, cpu: () => cpuByRole(role) },
    );
    report(
      `tools/call echo on server-everything, ${TOTAL} calls, ${concurrency} in flight, median of ${ROUNDS} interleaved rounds (base: ${baseRoot})`,
      rows,
      'base: /mcp',
    );
    const row = (name) => rows.find(([n]) => n === name)[1];
    for (const p of ['/mcp', 'blitz connect']) {
      const [before, after] = [row(`base: ${p}`), row(`this: ${p}`)];
      const daemonCpu = (r, tag) => r.cpuPerCall.get(`${tag} daemon`) ?? 0;
      console.log(
        `  ${p}: p50 ${(after.p50 / before.p50).toFixed(2)}× base's, calls/s ${(after.perSecond / before.perSecond).toFixed(2)}×, daemon CPU µs per call ${Math.round(daemonCpu(before, 'base'))} → ${Math.round(daemonCpu(after, 'this'))}`,
      );
    }
    reportCpu(rows);
  }
} finally {
  // Whatever failed, no daemon of this run is left behind.
  for (const { home, workspace, child, overHttp, bridged } of daemons.values()) {
    await Promise.all([overHttp.close(), bridged.close()]).catch(() => undefined);
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  endLeftovers();
}

/** Whose process it is (base or this build) and what part of a path, by its command line. */
function role(argv) {
  const args = argv.slice(1).join(' ');
  const tag = args.startsWith(builds[0][1]) ? 'base' : args.startsWith(blitz) ? 'this' : undefined;
  if (tag && args.includes(' connect')) return `${tag} connect`;
  if (tag && args.includes(' daemon')) return `${tag} daemon`;
  if (args.includes(everything)) return 'server';
  return undefined;
}
