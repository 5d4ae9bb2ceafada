// Issue 18, against the peers: `tools/call echo` on the same server-everything, one SDK
// client, through each path, measured in one run (interleaved rounds, medians):
//   direct SDK stdio (the baseline), `blitz connect`, Blitz's `/mcp`, and the peers installed
//   from npm into a scratch folder under the OS temp dir (not the project's dependencies):
//   supergateway (SSE, and stateful streamable HTTP), mcp-hub (SSE) and mcp-proxy
//   (streamable HTTP), each in front of its own server-everything, all on 127.0.0.1 (the
//   peers run with bench/loopback-only.mjs preloaded: they listen on loopback whatever they
//   ask for, and reach no other host).
// Printed: p50 × direct (1 in flight) and calls/s × direct (16 in flight) for every path, and
// the verdict: Blitz's two paths first on p50 and on calls/s. A peer that cannot be installed
// or started is named with the reason, and the run goes on without it.
//
//   node --no-warnings bench/peers.mjs     (BENCH_CALLS=1000, BENCH_ROUNDS=3)
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  connectClient,
  cpuByRole,
  endLeftovers,
  everything,
  httpClient,
  httpFloor,
  loadNote,
  mcpClient,
  processRole,
  stdioClient,
  tempDir,
  within,
} from './harness.mjs';
import { startEverythingDaemon } from './everything-daemon.mjs';
import { compare, report, reportCpu } from './stats.mjs';

const TOTAL = Number(process.env.BENCH_CALLS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const START_TIMEOUT_MS = 60_000;
const PACKAGES = { 'mcp-hub': '4.2.1', supergateway: '4.0.0', 'mcp-proxy': '6.7.19' };
const guard = path.join(import.meta.dirname, 'loopback-only.mjs');

const tmp = tempDir('blitz-bench-peers-');
const peerHome = path.join(tmp, 'home');
fs.mkdirSync(peerHome);
const peerEnv = {
  ...process.env,
  HOME: peerHome,
  XDG_CONFIG_HOME: path.join(peerHome, '.config'),
  XDG_STATE_HOME: path.join(peerHome, '.local', 'state'),
  XDG_DATA_HOME: path.join(peerHome, '.local', 'share'),
  XDG_CACHE_HOME: path.join(peerHome, '.cache'),
};
const skipped = [];
const peers = [];
const closers = [];

/** npm install of the peers into tmp; those that fail are named in `skipped`. */
async function installPeers() {
  const run = promisify(execFile);
  fs.writeFileSync(path.join(tmp, 'package.json'), '{ "private": true }\n');
  const install = (specs) =>
    run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', ...specs], { cwd: tmp, timeout: 300_000 });
  try {
    await install(Object.entries(PACKAGES).map(([name, version]) => `${name}@${version}`));
    return Object.keys(PACKAGES);
  } catch {
    const installed = [];
    for (const [name, version] of Object.entries(PACKAGES)) {
      try {
        await install([`${name}@${version}`]);
        installed.push(name);
      } catch (err) {
        skipped.push(
          `${name}: npm install failed: ${String(err.stderr || err.message)
            .trim()
            .split('\n')
            .slice(-2)
            .join(' ')}`,
        );
      }
    }
    return installed;
  }
}

function binOf(name) {
  const pkg = JSON.parse(fs.readFileSync(path.join(tmp, 'node_modules', name, 'package.json'), 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin[name];
  return path.join(tmp, 'node_modules', name, bin);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Addresses listening on `port`, from /proc/net/tcp and tcp6 (Linux). */
function listeners(port) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const found = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === '0A' && local?.endsWith(`:${hex}`)) found.push(local.split(':')[0]);
    }
  }
  return found;
}
const LOOPBACK_HEX = new Set(['0100007F', '00000000000000000000000001000000']);

/**
 * Starts `node --import loopback-only.mjs bin args…` in a process group of its own and
 * connects `connect(port)` once it lists `echo`; returns the client, or throws why not.
 */
async function startPeer(label, name, args, connect, tool) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', guard, binOf(name), ...args(port)], {
    cwd: tmp,
    env: peerEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }, 5_000);
    await exited;
    clearTimeout(timer);
  };
  closers.push(stop);
  const lastLine = () => stderr.trim().split('\n').pop() ?? '';
  for (const deadline = Date.now() + START_TIMEOUT_MS; ;) {
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode}): ${lastLine()}`);
    if (Date.now() > deadline) throw new Error(`${label} did not offer ${tool} within ${START_TIMEOUT_MS / 1000} s: ${lastLine()}`);
    if (listeners(port).length) {
      const client = await connect(port).catch(() => undefined);
      if (client) {
        const { tools } = await client.listTools();
        if (tools.some((t) => t.name === tool)) {
          const open = listeners(port).filter((a) => !LOOPBACK_HEX.has(a));
          if (open.length) throw new Error(`${label} listens beyond loopback (${open.join(', ')})`);
          return client;
        }
        await client.close();
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

const sse = (url) => async () => {
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new SSEClientTransport(new URL(url)));
  return client;
};
const streamable = (url) => async () => {
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
};
const server = [process.execPath, everything, 'stdio'];

/** Each installed peer's [entry, package name]: the CPU table's roles for its processes (processRole). */
const peerRoles = [];

const PEERS = [
  [
    'supergateway, SSE',
    'supergateway',
    (port) => ['--stdio', server.map((s) => JSON.stringify(s)).join(' '), '--port', String(port), '--logLevel', 'none'],
    (port) => sse(`http://127.0.0.1:${port}/sse`)(),
    'echo',
  ],
  [
    'supergateway, streamable HTTP (stateful)',
    'supergateway',
    (port) => [
      '--stdio',
      server.map((s) => JSON.stringify(s)).join(' '),
      '--outputTransport',
      'streamableHttp',
      '--stateful',
      '--port',
      String(port),
      '--logLevel',
      'none',
    ],
    (port) => streamable(`http://127.0.0.1:${port}/mcp`)(),
    'echo',
  ],
  [
    'mcp-hub, SSE',
    'mcp-hub',
    (port) => {
      const config = path.join(tmp, 'mcp-hub.json');
      fs.writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: server[0], args: server.slice(1) } } }));
      return ['--port', String(port), '--config', config];
    },
    (port) => sse(`http://127.0.0.1:${port}/mcp`)(),
    'everything__echo',
  ],
  [
    'mcp-proxy, streamable HTTP',
    'mcp-proxy',
    (port) => ['--port', String(port), '--host', '127.0.0.1', '--server', 'stream', '--', ...server],
    (port) => streamable(`http://127.0.0.1:${port}/mcp`)(),
    'echo',
  ],
];

let daemon;
try {
  console.log(
    `installing ${Object.entries(PACKAGES)
      .map(([n, v]) => `${n}@${v}`)
      .join(', ')} into ${tmp}…`,
  );
  const installed = await installPeers();
  for (const name of installed) peerRoles.push([binOf(name), name]);
  for (const [label, name, args, connect, tool] of PEERS) {
    if (!installed.includes(name)) continue;
    try {
      const client = await within(START_TIMEOUT_MS + 10_000, `starting ${label}`, startPeer(label, name, args, connect, tool));
      closers.push(() => client.close().catch(() => undefined));
      peers.push([label, client, tool]);
    } catch (err) {
      skipped.push(`${label}: ${err.message}`);
    }
  }

  daemon = await startEverythingDaemon();
  const direct = await stdioClient(process.execPath, [everything, 'stdio']);
  const bridged = await connectClient(daemon.workspace, daemon.env);
  const overHttp = await mcpClient(daemon.state, daemon.workspace);
  for (const c of [direct, bridged, overHttp]) closers.push(() => c.close().catch(() => undefined));
  await bridged.listTools();
  await overHttp.listTools();
  // What this client's streamable HTTP transport costs with nothing behind it: no endpoint of
  // that transport, a hub or a peer, can beat it.
  const canned = await httpFloor('canned-http.mjs');
  closers.push(() => canned.close());
  const cannedClient = await httpClient(canned.url);
  closers.push(() => cannedClient.close().catch(() => undefined));

  const call =
    (client, name = 'echo') =>
    (i) =>
      client.callTool({ name, arguments: { message: `m${i}` } });
  const BLITZ = ['Blitz: blitz connect', 'Blitz: /mcp'];
  const FLOOR = 'floor: streamable HTTP, canned answer';
  const variants = [
    ['direct SDK stdio', call(direct)],
    [BLITZ[0], call(bridged)],
    [BLITZ[1], call(overHttp)],
    ...peers.map(([label, client, tool]) => [label, call(client, tool)]),
    [FLOOR, call(cannedClient)],
  ];
  const results = {};
  for (const concurrency of [1, 16]) {
    const rows = await compare(variants, {
      total: TOTAL,
      concurrency,
      rounds: ROUNDS,
      cpu: () => cpuByRole((argv) => processRole(argv, peerRoles)),
    });
    report(
      `tools/call echo on server-everything, ${TOTAL} calls, ${concurrency} in flight, median of ${ROUNDS} interleaved rounds (${loadNote()})`,
      rows,
      'direct SDK stdio',
    );
    // Where each path's time goes: the client's own CPU is the SDK transport's (SSE or streamable HTTP).
    reportCpu(rows);
    results[concurrency] = Object.fromEntries(rows);
  }

  const base = (c) => results[c]['direct SDK stdio'];
  console.log(`\nBlitz against the peers, one run (${loadNote()})`);
  console.log('  path                                         p50 × direct stdio   calls/s at 16 in flight × direct');
  for (const [name] of variants.slice(1)) {
    console.log(
      `  ${name.padEnd(44)} ${(results[1][name].p50 / base(1).p50).toFixed(2).padStart(17)}× ${(results[16][name].perSecond / base(16).perSecond).toFixed(2).padStart(25)}×`,
    );
  }
  const peerNames = peers.map(([label]) => label);
  const first = (metric, better) => BLITZ.every((b) => peerNames.every((p) => better(metric(b), metric(p))));
  const p50First = first(
    (n) => results[1][n].p50,
    (a, b) => a < b,
  );
  const rateFirst = first(
    (n) => results[16][n].perSecond,
    (a, b) => a > b,
  );
  // One process runs every path's client, so at 16 in flight its CPU per call bounds calls/s: the
  // SDK's SSE client reads every answer from one open stream, its streamable HTTP client reads
  // each from the POST's own response.
  console.log("\n  the client's own CPU per call at 16 in flight, and the calls/s it alone allows (one core):");
  for (const [name] of variants.slice(1)) {
    const us = results[16][name].cpuPerCall?.get('client');
    if (us) console.log(`  ${name.padEnd(44)} ${String(Math.round(us)).padStart(6)} µs   ≤ ${Math.round(1e6 / us)} calls/s`);
  }
  for (const s of skipped) console.log(`  not measured: ${s}`);
  const verdict =
    peerNames.length === 0
      ? 'no peer could be measured'
      : p50First && rateFirst
        ? 'ok'
        : `NOT first on ${[!p50First && 'p50', !rateFirst && 'calls/s'].filter(Boolean).join(' and ')}`;
  console.log(`  verdict (Blitz's two paths first on p50 and calls/s, against ${peerNames.length} peer paths): ${verdict}`);
  // A peer ahead of /mcp on calls/s is ahead by the client's transport when it is ahead of the
  // canned floor too (no streamable HTTP endpoint can be); behind that floor, /mcp has room.
  const rate = (n) => Math.round(results[16][n].perSecond);
  for (const p of peerNames.filter((n) => rate(n) > rate(BLITZ[1])))
    console.log(
      `  ${p} is ahead of /mcp on calls/s (${rate(p)} against ${rate(BLITZ[1])}), ` +
        (rate(p) > rate(FLOOR)
          ? `and of the canned streamable HTTP floor (${rate(FLOOR)}) too: by the client's transport`
          : `not of the canned streamable HTTP floor (${rate(FLOOR)}): /mcp has room`),
    );
} finally {
  for (const close of closers.reverse()) await close();
  await daemon?.stop();
  const left = endLeftovers();
  if (left) {
    console.log(`  ${left} process(es) were still running after the teardown and were ended`);
    process.exitCode = 1;
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}
