// Issue 5 benchmark: `tools/call echo` on server-everything through the daemon's /mcp and
// through `blitz connect`, against a direct SDK stdio connection to the same server, in one
// run, sequential and 16 concurrent. Targets: hub p50 at most 2.5× direct; at 16 concurrent
// at least half of direct's calls/s.
//
// Two floors are measured in the same run, as no hub can beat them on this machine:
// - two byte relays between client and server: the processes `blitz connect` and the daemon
//   add, doing nothing but passing bytes;
// - the SDK's HTTP client against a process that answers at once (bench/canned-http.mjs):
//   what any streamable HTTP endpoint costs this client before the hub does anything;
// - the same client against an HTTP front that relays each POST to the same server as a line
//   and its answer back (bench/http-relay.mjs): that endpoint plus the server's hop and the
//   server's own work, with nothing of a hub in between. The relay also times the server alone
//   (its write to the server to the answer read back): canned + that is what a hub costing
//   nothing would take, printed against canned at 1 in flight.
// Each path also shows its CPU per call by process (client, relays, blitz connect, daemon,
// server), from /proc: where the time beyond the floor goes.
// The variants run interleaved, 5 rounds, each round starting one variant later than the last
// (stats.mjs compare): no path is always measured in the same slot of a round.
// (Run with --no-warnings: the SDK's HTTP client adds a listener to one AbortSignal per
// request and Node warns about it; that is the client's, not the hub's.)
import path from 'node:path';
import { connectClient, cpuByRole, httpClient, httpFloor, mcpClient, processRole, sleepsSoFar, stdioClient } from './harness.mjs';
import { EVERYTHING as everything, startEverythingDaemon } from './everything-daemon.mjs';
import { compare, report, reportCpu } from './stats.mjs';

const TOTAL = Number(process.env.BENCH_CALLS ?? 1000);

const { workspace, env, state, stop } = await startEverythingDaemon();

const direct = await stdioClient(process.execPath, [everything, 'stdio']);
const relay = path.join(import.meta.dirname, 'byte-relay.mjs');
const relayed = await stdioClient(process.execPath, [relay, process.execPath, relay, process.execPath, everything, 'stdio']);
const canned = await httpFloor('canned-http.mjs');
const cannedClient = await httpClient(canned.url);
const httpRelay = await httpFloor('http-relay.mjs', [process.execPath, everything, 'stdio']);
const httpRelayed = await httpClient(httpRelay.url);
const overHttp = await mcpClient(state, workspace);
const bridged = await connectClient(workspace, env);
await overHttp.listTools();
await bridged.listTools();

const call = (client) => (i) => client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
for (const concurrency of [1, 16]) {
  await httpRelay.serverTimes(); // from here on
  const rows = await compare(
    [
      ['direct SDK stdio', call(direct)],
      ['hub over HTTP (/mcp)', call(overHttp)],
      ['hub via blitz connect', call(bridged)],
      ['floor: HTTP, canned answer', call(cannedClient)],
      ['floor: HTTP relay to server', call(httpRelayed)],
      ['floor: 2 byte relays', call(relayed)],
    ],
    { total: TOTAL, concurrency, cpu: () => cpuByRole(processRole), sleeps: sleepsSoFar },
  );
  report(
    `tools/call echo on server-everything, ${TOTAL} calls, ${concurrency} in flight, median of 5 interleaved rounds`,
    rows,
    'direct SDK stdio',
  );
  const row = (name) => rows.find(([n]) => n === name)[1];
  const against = (name, floor) =>
    `p50 ${(row(name).p50 / row(floor).p50).toFixed(2)}× its floor's, calls/s ${(row(name).perSecond / row(floor).perSecond).toFixed(2)}× its floor's`;
  console.log(`  /mcp: ${against('hub over HTTP (/mcp)', 'floor: HTTP, canned answer')}`);
  console.log(`  /mcp against the HTTP relay to the same server: ${against('hub over HTTP (/mcp)', 'floor: HTTP relay to server')}`);
  // What no hub can take away, one call at a time: canned's client and HTTP costs, plus the server's own time.
  const { serverP50Ms } = await httpRelay.serverTimes();
  const cannedP50 = row('floor: HTTP, canned answer').p50;
  if (concurrency === 1)
    console.log(
      `  a hub costing nothing: the server alone takes p50 ${serverP50Ms.toFixed(3)} ms (the relay's write to its stdin to the answer read back), so canned + server is ${((cannedP50 + serverP50Ms) / cannedP50).toFixed(2)}× canned's p50; the relay that does only that is ${(row('floor: HTTP relay to server').p50 / cannedP50).toFixed(2)}× (bench/mcp-floors.mjs: other answer shapes)`,
    );
  console.log(`  blitz connect: ${against('hub via blitz connect', 'floor: 2 byte relays')}`);
  reportCpu(rows);
}

await Promise.all([direct.close(), overHttp.close(), bridged.close(), relayed.close(), cannedClient.close(), httpRelayed.close()]);
canned.close();
httpRelay.close();
await stop();
