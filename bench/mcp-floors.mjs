// Issue 18's /mcp target (p50 ≤ 1.3× the canned floor), examined: could another shape of
// answer, or less HTTP machinery, bring an HTTP endpoint in front of server-everything near
// the canned floor, before anything of a hub is added? One SDK client, `tools/call echo`, in
// one run, interleaved rounds (stats.mjs compare), every row against the canned floor:
// - canned (bench/canned-http.mjs) answering as JSON (the floor), as SSE, and over a minimal
//   HTTP/1.1 reader on a bare TCP server instead of node:http (bench/http-answers.mjs);
// - the do-nothing relay to server-everything (bench/http-relay.mjs) answering as JSON (the
//   relay floor), with its head sent at once and the JSON body when the server answers, with
//   an SSE head at once and the event when the server answers (the transport allows an SSE
//   answer to a POST: the client could read the head while the server works), and over the
//   minimal HTTP reader;
// - /mcp of a daemon in front of the same server.
// Each relay also times the server alone (its write to the server's stdin to the answer's line
// read back, so the relay's own wake-up for the answer, and any work of its own still running
// then, are in it too: the minimal relay's is the nearest to the server's own): canned + that
// is what a hub costing nothing would take at best. Figures, no
// verdict; not in `npm run bench`. BENCH_CALLS (1000), BENCH_ROUNDS (5), BENCH_CONCURRENCY ("1").
// (Run with --no-warnings, as hub-echo.mjs.)
import { cpuByRole, everything, httpClient, httpFloor, mcpClient, processRole, sleepsSoFar } from './harness.mjs';
import { startEverythingDaemon } from './everything-daemon.mjs';
import { compare, report, reportCpu } from './stats.mjs';

const TOTAL = Number(process.env.BENCH_CALLS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const server = [process.execPath, everything, 'stdio'];
const FLOOR = 'canned, JSON (the floor)';

const fronts = [
  [FLOOR, 'canned-http.mjs', []],
  ['canned, SSE', 'canned-http.mjs', ['--answer=sse']],
  ['canned, minimal HTTP', 'canned-http.mjs', ['--answer=minimal']],
  ['relay, JSON (relay floor)', 'http-relay.mjs', server],
  ['relay, head early, JSON', 'http-relay.mjs', ['--answer=early-json', ...server]],
  ['relay, SSE head early', 'http-relay.mjs', ['--answer=early-sse', ...server]],
  ['relay, minimal HTTP', 'http-relay.mjs', ['--answer=minimal', ...server]],
];
const { workspace, state, stop } = await startEverythingDaemon();
const started = [];
try {
  const variants = [];
  for (const [name, script, args] of fronts) {
    const front = await httpFloor(script, args);
    const client = await httpClient(front.url);
    started.push({ name, front, client, relay: script === 'http-relay.mjs' });
    variants.push([name, client]);
  }
  const overHttp = await mcpClient(state, workspace);
  await overHttp.listTools();
  started.push({ name: '/mcp', client: overHttp });
  variants.push(['hub /mcp', overHttp]);

  const call = (client) => (i) => client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
  for (const concurrency of (process.env.BENCH_CONCURRENCY ?? '1').split(',').map(Number)) {
    for (const s of started) if (s.relay) await s.front.serverTimes(); // from here on
    const rows = await compare(
      variants.map(([name, client]) => [name, call(client)]),
      { total: TOTAL, concurrency, rounds: ROUNDS, cpu: () => cpuByRole(processRole), sleeps: sleepsSoFar },
    );
    report(
      `tools/call echo on server-everything, ${TOTAL} calls, ${concurrency} in flight, median of ${ROUNDS} interleaved rounds`,
      rows,
      FLOOR,
    );
    reportCpu(rows);
    const floor = rows.find(([n]) => n === FLOOR)[1].p50;
    console.log(`  the server alone (each relay's write to its stdin to the answer read back), and canned + that against canned's p50:`);
    for (const s of started.filter((x) => x.relay)) {
      const { serverP50Ms } = await s.front.serverTimes();
      console.log(
        `  ${s.name.padEnd(26)} server p50 ${serverP50Ms.toFixed(3)} ms   canned + server ${((floor + serverP50Ms) / floor).toFixed(2)}×`,
      );
    }
  }
} finally {
  await Promise.all(started.map((s) => s.client.close()));
  for (const s of started) s.front?.close();
  await stop();
}
