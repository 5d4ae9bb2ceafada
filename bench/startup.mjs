// Issue 17 benchmark: how long the installed `blitz` takes to start, against starting Node at
// all (`node -e 0`), in the same run. The package is packed and installed into a temporary
// prefix first, so this measures what users run: the bundle, not the workspaces' dist/.
//   - `blitz --version`: from spawn to the first byte on stdout;
//   - `blitz connect` with a running daemon: from spawn (initialize already written to its
//     stdin) to the initialize answer on stdout — what a client waits for at each start;
//   - `blitz mcp list` with that daemon: from spawn to exit (what users type most), shown for
//     information: it loads most of core (settings, sign-in store), and the bar is not its;
//   - `blitz daemon start` with no daemon running (a home of its own, no servers): from spawn to
//     its exit, once the detached daemon answers — what `blitz connect` waits for before a cold
//     start's first message (issue 18), for information; the daemon is stopped after each, untimed.
// Rounds are interleaved (node, version, connect, node, …) so that none always runs on a
// busier machine; each figure is the median. The bar: under 150 ms above `node -e 0`.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installPackage } from './harness.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
const BAR_MS = 150;
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-startup-')));
const home = path.join(tmp, 'home');

console.log('packing and installing the package into a temporary prefix…');
const { blitz, bin } = installPackage(tmp);
fs.mkdirSync(home, { recursive: true });
fs.writeFileSync(path.join(home, 'settings.toml'), '[daemon]\nport = 0\n');
const runEnv = {
  PATH: `${bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin:/bin`,
  HOME: home,
  BLITZ_HOME: home,
};
execFileSync(blitz, ['daemon', 'start'], { env: runEnv, cwd: home, stdio: 'ignore' });

const coldHome = path.join(tmp, 'cold-home');
fs.mkdirSync(coldHome, { recursive: true });
fs.writeFileSync(path.join(coldHome, 'settings.toml'), '[daemon]\nport = 0\n');
const coldEnv = { ...runEnv, HOME: coldHome, BLITZ_HOME: coldHome };

/** `blitz daemon start` in a home with no daemon: ms from spawn to its exit (the daemon answers by then); then stopped, untimed. */
async function daemonStart() {
  const t0 = performance.now();
  execFileSync(blitz, ['daemon', 'start'], { env: coldEnv, cwd: coldHome, stdio: 'ignore' });
  const ms = performance.now() - t0;
  execFileSync(blitz, ['daemon', 'stop'], { env: coldEnv, cwd: coldHome, stdio: 'ignore' });
  // `stop` returns once the daemon said it stops; the next start must find its lock free.
  for (const deadline = Date.now() + 15_000; fs.existsSync(path.join(coldHome, 'state', 'daemon.json'));) {
    if (Date.now() > deadline) throw new Error('the cold-home daemon did not stop');
    await new Promise((r) => setTimeout(r, 20));
  }
  return ms;
}

const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`;

/**
 * Spawns `file args`, optionally writing `input`; resolves with the ms until `done(stdout)`
 * first holds (or, without `done`, until exit), after the process has exited.
 */
function timeIt(file, args, { input, done } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(file, args, { env: runEnv, cwd: home, stdio: ['pipe', 'pipe', 'ignore'] });
    let elapsed;
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      if (elapsed === undefined && done?.(out)) {
        elapsed = performance.now() - t0;
        child.stdin.end();
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (!done) elapsed = performance.now() - t0;
      if (elapsed === undefined) reject(new Error(`${file} ${args.join(' ')} exited (${code}) before it answered: ${out}`));
      else resolve(elapsed);
    });
    if (input) child.stdin.write(input);
    if (!done) child.stdin.end();
  });
}

const variants = [
  ['node -e 0 (baseline)', () => timeIt(process.execPath, ['-e', '0'])],
  ['blitz --version', () => timeIt(blitz, ['--version'], { done: (out) => out.length > 0 })],
  ['blitz connect: initialize', () => timeIt(blitz, ['connect'], { input: INITIALIZE, done: (out) => out.includes('\n') })],
  ['blitz mcp list (to exit)', () => timeIt(blitz, ['mcp', 'list'])],
  ['blitz daemon start (no daemon)', daemonStart],
];
/** Shown for information, without a verdict: the bar is set for --version and connect. */
const INFO = new Set(['blitz mcp list (to exit)', 'blitz daemon start (no daemon)']);

try {
  // One unmeasured round: the first start of each reads its files from disk.
  for (const [, run] of variants) await run();
  const times = new Map(variants.map(([name]) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) for (const [name, run] of variants) times.get(name).push(await run());
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
  const base = median(times.get(variants[0][0]));
  console.log(
    `\nstart-up of the installed blitz, median of ${ROUNDS} interleaved rounds (${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)})`,
  );
  console.log('  variant                       median ms   p90 ms   above node -e 0   verdict (< 150 ms above)');
  for (const [name] of variants) {
    const m = median(times.get(name));
    const above = m - base;
    const isBase = name === variants[0][0];
    const verdict = isBase ? '' : INFO.has(name) ? '(information)' : above < BAR_MS ? 'ok' : 'OVER';
    console.log(
      `  ${name.padEnd(28)} ${m.toFixed(1).padStart(10)} ${p90(times.get(name)).toFixed(1).padStart(8)} ${(isBase ? '' : `${above >= 0 ? '+' : ''}${above.toFixed(1)} ms`).padStart(17)}   ${verdict}`,
    );
  }
  // A missed target is the verdict printed above; it does not stop `npm run bench` (as in the other benchmarks).
} finally {
  execFileSync(blitz, ['daemon', 'stop'], { env: runEnv, cwd: home, stdio: 'ignore' });
  fs.rmSync(tmp, { recursive: true, force: true });
}
