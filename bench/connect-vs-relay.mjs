// What `blitz connect` costs against a process that only passes bytes, on the same traffic:
// one chain, SDK client → byte relay (byte-relay.mjs) → blitz connect → daemon →
// server-everything, so the relay and connect see the same lines, chunked the same way. Prints
// each one's CPU µs per `tools/call echo` per round (user + system, from /proc), 1 and 16 in
// flight, and connect's ratio to the relay: a figure of connect's own that others' load moves
// little, where hub-echo's calls/s moves with the whole machine. Diagnostics for issue 18's
// connect path, not in `npm run bench`. BENCH_CALLS (20000) and BENCH_ROUNDS (5) change the run;
// BENCH_BLITZ=<another blitz.js> measures another build's connect.
import path from 'node:path';
import { blitz, cpuSeconds, descendants, median, stdioClient } from './harness.mjs';
import { startEverythingDaemon } from './everything-daemon.mjs';

const TOTAL = Number(process.env.BENCH_CALLS ?? 20000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const bin = process.env.BENCH_BLITZ ?? blitz;

const { workspace, env, stop } = await startEverythingDaemon();
const relay = path.join(import.meta.dirname, 'byte-relay.mjs');
const client = await stdioClient(process.execPath, [relay, process.execPath, bin, 'connect', '--workspace', workspace], { env });
try {
  await client.listTools();
  // Warm: the first round would otherwise pay for the JIT of both processes.
  for (let i = 0; i < 1000; i++) await client.callTool({ name: 'echo', arguments: { message: 'warm' } });
  const relayPid = client.transport.pid;
  const connectPid = descendants(relayPid).find((pid) => pid !== relayPid);
  if (connectPid === undefined) throw new Error('blitz connect is not running under the relay');
  console.log(`blitz connect (${bin}) behind a byte relay, tools/call echo, ${TOTAL} calls a round, ${ROUNDS} rounds`);
  for (const concurrency of [1, 16]) {
    const rows = [];
    for (let r = 0; r < ROUNDS; r++) {
      const [relay0, connect0] = [cpuSeconds(relayPid), cpuSeconds(connectPid)];
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < TOTAL) await client.callTool({ name: 'echo', arguments: { message: `m${next++}` } });
        }),
      );
      rows.push({ relay: ((cpuSeconds(relayPid) - relay0) * 1e6) / TOTAL, connect: ((cpuSeconds(connectPid) - connect0) * 1e6) / TOTAL });
    }
    const list = (key) => rows.map((row) => row[key].toFixed(1)).join(' ');
    console.log(`  ${concurrency} in flight, CPU µs per call by round: relay ${list('relay')}; blitz connect ${list('connect')}`);
    const ratios = rows.map((row) => row.connect / row.relay);
    console.log(`  blitz connect ÷ relay: median ${median(ratios).toFixed(2)}× (rounds ${ratios.map((x) => x.toFixed(2)).join(' ')})`);
  }
} finally {
  await client.close();
  await stop();
}
