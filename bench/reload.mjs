// Issue 11 point 10: is a settings reload linear in the number of servers? For 1k, 5k and 10k
// configured servers (one open workspace, none started), the time of `Daemon.reload()` after
// an edit of one server — read, validate, apply to the workspace's manager — and of the
// `GET /v1/status` the tray polls, each per server. The verdict is the ratio of
// the per-server time at 10k to that at 1k, measured in the same run: about 1 is linear, about
// 10 would be quadratic (before the fix, status alone took 8.5 s at 10k servers).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Daemon } from '../apps/daemon/dist/index.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,5000,10000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function settingsText(count, round) {
  const entries = Array.from(
    { length: count },
    (_, i) =>
      `[[mcp.servers]]\nname = "s${i}"\ncommand = "node"\nargs = ["server-${i}.js", "--round", "${i === 0 ? round : 0}"]\nenv = { TOKEN = "token-${i}-value" }\n`,
  );
  return `# benchmark settings\n[daemon]\nport = 0\n\n${entries.join('\n')}`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(count) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-reload-'));
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-bench-reload-ws-'));
  const settings = path.join(home, 'settings.toml');
  fs.writeFileSync(settings, settingsText(count, 0));
  const daemon = await Daemon.start({ home, version: 'bench', port: 0 });
  try {
    await daemon.registry.open(workspace);
    const status = () => fetch(`${daemon.url}/v1/status`, { headers: { authorization: `Bearer ${daemon.token}` } }).then((r) => r.text());
    await status();
    const reloads = [];
    const statuses = [];
    for (let round = 1; round <= ROUNDS; round++) {
      fs.writeFileSync(settings, settingsText(count, round));
      let t0 = performance.now();
      await daemon.reload();
      reloads.push(performance.now() - t0);
      // The file watcher reads the same edit again after its debounce; let it pass first.
      await sleep(1000);
      t0 = performance.now();
      await status();
      statuses.push(performance.now() - t0);
    }
    return { count, reloadMs: median(reloads), statusMs: median(statuses) };
  } finally {
    await daemon.stop();
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

const rows = [];
for (const count of SIZES) rows.push(await measure(count));

console.log(`\nsettings reload and status by number of servers (median of ${ROUNDS} rounds, one open workspace)`);
console.log('  servers   reload ms   µs/server   status ms   µs/server');
for (const r of rows) {
  const per = (ms) => ((ms * 1000) / r.count).toFixed(1).padStart(10);
  console.log(
    `  ${String(r.count).padStart(7)} ${r.reloadMs.toFixed(1).padStart(11)} ${per(r.reloadMs)} ${r.statusMs.toFixed(1).padStart(11)} ${per(r.statusMs)}`,
  );
}
const first = rows[0];
const last = rows.at(-1);
const ratio = (ms) => ms(last) / last.count / (ms(first) / first.count);
console.log(
  `  linearity (per-server time at ${last.count} / at ${first.count}; 1 is linear, ${last.count / first.count} quadratic): reload ${ratio((r) => r.reloadMs).toFixed(2)}, status ${ratio((r) => r.statusMs).toFixed(2)}`,
);
