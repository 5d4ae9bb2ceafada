// What the hub benchmarks share: where the real servers and `blitz` are, a daemon started in
// a temporary home with the given settings, SDK clients over stdio and over HTTP, and the
// processes a benchmark started with their memory, read from /proc (Linux).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readDaemonState } from '../packages/client/dist/index.js';

export const root = path.resolve(import.meta.dirname, '..');
export const blitz = path.join(root, 'apps', 'cli', 'bin', 'blitz.js');
const require = createRequire(path.join(root, 'package.json'));

/** The entry script of an installed MCP server package, e.g. `server-everything`. */
export function serverScript(name) {
  return path.join(path.dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js');
}
export const everything = serverScript('server-everything');

export function tempDir(prefix) {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** A TOML string or array literal. */
export const toml = (value) => (Array.isArray(value) ? `[${value.map(toml).join(', ')}]` : JSON.stringify(value));

/** A `[[mcp.servers]]` entry running `node script args…`, approved and unsandboxed. */
export function serverEntry(name, script, args = [], extra = '') {
  return `[[mcp.servers]]\nname = ${toml(name)}\ncommand = ${toml(process.execPath)}\nargs = ${toml([script, ...args])}\nsandbox = false\nauto_approve = true\n${extra}`;
}

/** `env = { K = "v", … }` for a server entry, or nothing for no variables. */
export const envLine = (env) =>
  Object.keys(env).length
    ? `env = { ${Object.entries(env)
        .map(([k, v]) => `${k} = ${toml(v)}`)
        .join(', ')} }\n`
    : '';

/**
 * `n` real stdio servers from npm, taking server-everything, server-filesystem (serving
 * `files`), server-memory (its file `memoryFile`) and server-sequential-thinking in turn:
 * each `{ name, script, args, env }`, named by kind and index.
 */
export function npmServers(n, { files, memoryFile }) {
  const kinds = [
    (i) => ({ name: `everything-${i}`, script: serverScript('server-everything'), args: ['stdio'], env: {} }),
    (i) => ({ name: `filesystem-${i}`, script: serverScript('server-filesystem'), args: [files], env: {} }),
    (i) => ({ name: `memory-${i}`, script: serverScript('server-memory'), args: [], env: { MEMORY_FILE_PATH: memoryFile } }),
    (i) => ({ name: `thinking-${i}`, script: serverScript('server-sequential-thinking'), args: [], env: {} }),
  ];
  return Array.from({ length: n }, (_, i) => kinds[i % kinds.length](i));
}

async function until(what, test, { timeoutMs = 30_000, everyMs = 20 } = {}) {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const value = test();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Waits (bounded) for the daemon of `home` to write its state file: { port, token, pid }. */
export const daemonState = (home, timeoutMs) => until('the daemon did not start', () => readDaemonState(home), { timeoutMs });

/** `blitz daemon` in the foreground, our child, in `home` with `settings` as settings.toml. */
export async function startDaemon(home, settings) {
  fs.writeFileSync(path.join(home, 'settings.toml'), `[daemon]\nport = 0\n\n${settings}`);
  const env = { ...process.env, BLITZ_HOME: home };
  const child = spawn(process.execPath, [blitz, 'daemon'], { env, stdio: 'ignore' });
  const state = await daemonState(home);
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  };
  return { child, state, env, stop };
}

/** An SDK client of `command args` over stdio (the transport spawns and ends the child). */
export async function stdioClient(command, args, extra = {}) {
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore', ...extra }));
  return client;
}

/** An SDK client of a streamable HTTP endpoint, with a bearer token if given. */
export async function httpClient(url, token) {
  const client = new Client({ name: 'bench', version: '0' });
  const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  return client;
}

/**
 * `node bench/<script> args…` (canned-http.mjs, http-relay.mjs), which prints {"port": N} once
 * listening and ends when our stdin to it closes; `serverTimes()` asks http-relay.mjs for the
 * server's p50 over the calls since it last asked ({ serverP50Ms, calls }).
 */
export async function httpFloor(script, args = []) {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, script), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value);
  const { port } = await next();
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    serverTimes: () => (child.stdin.write('times\n'), next()),
    close: () => child.stdin.end(),
  };
}

/** `blitz connect` for `workspace`, through the daemon of `env.BLITZ_HOME` (`command`: another blitz, e.g. `installPackage`'s). */
export const connectClient = (workspace, env, command) =>
  command
    ? stdioClient(command, ['connect', '--workspace', workspace], { env })
    : stdioClient(process.execPath, [blitz, 'connect', '--workspace', workspace], { env });

/**
 * The package as users install it (scripts/pack.mjs: the bundle), installed globally into a
 * prefix under `tmp`: returns its `blitz` command and the npm environment used.
 */
export function installPackage(tmp) {
  const env = { ...process.env, NO_UPDATE_NOTIFIER: '1', npm_config_update_notifier: 'false' };
  const tarball = execFileSync(process.execPath, [path.join(root, 'scripts', 'pack.mjs'), '--out', tmp], {
    cwd: root,
    env,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop();
  const prefix = path.join(tmp, 'prefix');
  execFileSync(
    'npm',
    ['install', '--global', '--prefix', prefix, '--cache', path.join(tmp, 'npm-cache'), '--no-audit', '--no-fund', tarball],
    { cwd: tmp, env, stdio: 'ignore' },
  );
  return { blitz: path.join(prefix, 'bin', 'blitz'), bin: path.join(prefix, 'bin') };
}

/** The daemon's `/mcp` for `workspace`. */
export const mcpClient = (state, workspace) =>
  httpClient(`http://127.0.0.1:${state.port}/mcp?workspace=${encodeURIComponent(workspace)}`, state.token);

function readProc(pid, file) {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Every live descendant of `pid` (not `pid` itself), found by parent pid in /proc. */
export function descendants(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(entry, 'stat');
    if (!stat) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(entry));
  }
  const found = [];
  for (let queue = [...(children.get(pid) ?? [])]; queue.length;) {
    const next = queue.shift();
    found.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

/**
 * Processes and memory of `pids`: their count, the sum of their RSS (shared pages counted in
 * each process, as `ps` adds them up) and of their PSS (shared pages divided among their
 * users), in MB.
 */
export function usage(pids) {
  let rss = 0;
  let pss = 0;
  let count = 0;
  for (const pid of pids) {
    const rollup = readProc(pid, 'smaps_rollup');
    if (!rollup) continue;
    count++;
    rss += Number(/^Rss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) / 1024;
    pss += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) / 1024;
  }
  return { processes: count, rssMb: rss, pssMb: pss };
}

/** CPU time (user + system) of `pid` so far, in seconds. */
export function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / Number(process.env.CLK_TCK ?? 100);
}

/** CPU time (user + system) of `pid` so far, in µs; undefined once it is gone. */
function cpuMicros(pid) {
  const stat = readProc(pid, 'stat');
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / Number(process.env.CLK_TCK ?? 100)) * 1e6;
}

/**
 * Which part of a benchmark's path a process is, by its command line (`argv`), for cpuByRole:
 * `first`'s [text, role] pairs are tried first, then the floors' processes, `blitz connect`,
 * the daemon and server-everything; undefined for any other.
 */
export function processRole(argv, first = []) {
  const args = argv.slice(1).join(' ');
  const roles = [
    ...first,
    ['byte-relay.mjs', 'relay'],
    ['canned-http.mjs', 'canned'],
    ['http-relay.mjs', 'http relay'],
    [' connect', 'blitz connect'],
    [' daemon', 'daemon'],
    [everything, 'server'],
  ];
  return roles.find(([text]) => args.includes(text))?.[1];
}

/**
 * CPU µs so far of this process (`client`) and of each of its descendants, summed by the
 * role `label(argv)` gives it (argv from /proc/PID/cmdline; undefined leaves it out).
 */
export function cpuByRole(label) {
  const byRole = new Map([['client', cpuMicros(process.pid)]]);
  for (const pid of descendants(process.pid)) {
    const argv = readProc(pid, 'cmdline')?.split('\0') ?? [];
    const role = label(argv);
    const us = role === undefined ? undefined : cpuMicros(pid);
    if (us !== undefined) byRole.set(role, (byRole.get(role) ?? 0) + us);
  }
  return byRole;
}

/** How often this process has waited so far (its voluntary context switches, from /proc; Linux). */
export function sleepsSoFar() {
  const match = /^voluntary_ctxt_switches:\s+(\d+)$/m.exec(readProc('self', 'status') ?? '');
  return match ? Number(match[1]) : undefined;
}

/** Ends whatever this process started that is still running (after a benchmark's teardown). */
export function endLeftovers() {
  const left = descendants(process.pid);
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return left.length;
}

/** `promise`, or an error naming `what` after `ms`. */
export function within(ms, what, promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const loadNote = () => `${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`;
