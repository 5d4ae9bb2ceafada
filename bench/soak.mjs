// Soak run (not CI, issue 11): 10 clients — 5 through `blitz connect`, 5 over HTTP `/mcp` —
// call `echo` on server-everything through one daemon at a steady rate for a chosen time,
// then print calls, errors, p50/p99 and the daemon's RSS and open file descriptors at the
// start, at the end, and once the clients have left. Loopback only; every loop is bounded
// by the duration, every call by a timeout.
//
//   node bench/soak.mjs [SECONDS=60] [--rate CALLS_PER_SECOND_PER_CLIENT=20]
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BLITZ as blitz, startEverythingDaemon } from './everything-daemon.mjs';
import { percentile } from './stats.mjs';

const args = process.argv.slice(2);
const rateAt = args.indexOf('--rate');
const rate = rateAt >= 0 ? Number(args[rateAt + 1]) : 20;
const seconds = Number(args.find((a, i) => /^\d+(\.\d+)?$/.test(a) && (rateAt < 0 || i !== rateAt + 1)) ?? 60);
if (!(seconds > 0) || !(rate > 0)) throw new Error('usage: node bench/soak.mjs [SECONDS] [--rate CALLS_PER_SECOND_PER_CLIENT]');
const CLIENTS_PER_TRANSPORT = 5;
const CALL_TIMEOUT_MS = 30_000;

const { workspace, env, state, stop } = await startEverythingDaemon();

/** The daemon's resident memory and open file descriptors, from /proc (Linux). */
function usage() {
  try {
    const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${state.pid}/status`, 'utf8'))[1]) / 1024;
    return { rss: `${rss.toFixed(1)} MB`, fds: fs.readdirSync(`/proc/${state.pid}/fd`).length };
  } catch {
    return { rss: 'n/a', fds: 'n/a' };
  }
}

async function connect(via) {
  const client = new Client({ name: `soak-${via}`, version: '0' });
  const query = `workspace=${encodeURIComponent(workspace)}`;
  await client.connect(
    via === 'connect'
      ? new StdioClientTransport({ command: process.execPath, args: [blitz, 'connect', '--workspace', workspace], env, stderr: 'ignore' })
      : new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${state.port}/mcp?${query}`), {
          requestInit: { headers: { authorization: `Bearer ${state.token}` } },
        }),
  );
  await client.listTools();
  return { via, client };
}

const clients = await Promise.all(
  [...Array(CLIENTS_PER_TRANSPORT).fill('connect'), ...Array(CLIENTS_PER_TRANSPORT).fill('http')].map(connect),
);
// Warm up, so the start figures are of a daemon that has served each client once.
await Promise.all(clients.map(({ client }) => client.callTool({ name: 'echo', arguments: { message: 'warm' } })));
const atStart = usage();

// RSS along the way too: growth that stops after warming up is not a leak.
const samples = [];
const sampler = setInterval(() => samples.push(usage().rss), (seconds * 1000) / 6);
const results = { connect: { times: [], errors: 0 }, http: { times: [], errors: 0 } };
const firstErrors = [];
const interval = 1000 / rate;
const started = performance.now();
const endAt = started + seconds * 1000;
await Promise.all(
  clients.map(async ({ via, client }, c) => {
    // Each client's slots are fixed in time; a late call is not made up by a burst.
    for (let i = 0; ; i++) {
      const slot = started + (c / clients.length) * interval + i * interval;
      if (slot >= endAt) return;
      const wait = slot - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const t0 = performance.now();
      try {
        const result = await client.callTool({ name: 'echo', arguments: { message: `c${c}-${i}` } }, undefined, {
          timeout: CALL_TIMEOUT_MS,
        });
        if (result.isError) throw new Error(JSON.stringify(result.content));
        results[via].times.push(performance.now() - t0);
      } catch (err) {
        results[via].errors++;
        if (firstErrors.length < 5) firstErrors.push(`${via}: ${err.message}`);
      }
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
clearInterval(sampler);
const atEnd = usage();
await Promise.all(clients.map(({ client }) => client.close().catch(() => undefined)));
// The daemon notices closed sessions at once over lines, and as their connections end over HTTP.
await new Promise((r) => setTimeout(r, 1_000));
const afterLeaving = usage();

const line = (name, { times, errors }) => {
  const sorted = [...times].sort((a, b) => a - b);
  const p = (q) => (sorted.length ? percentile(sorted, q).toFixed(2) : 'n/a');
  return `  ${name.padEnd(22)} ${String(sorted.length + errors).padStart(8)} ${String(errors).padStart(7)} ${p(50).padStart(8)} ${p(99).padStart(8)}`;
};
console.log(
  `\nsoak: ${clients.length} clients (${CLIENTS_PER_TRANSPORT} blitz connect, ${CLIENTS_PER_TRANSPORT} HTTP /mcp), ${rate} calls/s each, ${elapsed.toFixed(1)} s, tools/call echo on server-everything`,
);
console.log('  clients                   calls  errors   p50 ms   p99 ms');
console.log(line('blitz connect', results.connect));
console.log(line('HTTP /mcp', results.http));
console.log(
  line('all', { times: [...results.connect.times, ...results.http.times], errors: results.connect.errors + results.http.errors }),
);
console.log(`  daemon RSS: ${atStart.rss} at start, ${atEnd.rss} at end, ${afterLeaving.rss} after the clients left`);
console.log(`  daemon RSS every ${(seconds / 6).toFixed(0)} s: ${samples.join(', ')}`);
console.log(`  daemon fds: ${atStart.fds} at start, ${atEnd.fds} at end, ${afterLeaving.fds} after the clients left`);
for (const e of firstErrors) console.log(`  error: ${e}`);

await stop();
