import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { readDaemonState } from '@blitz/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { REAL_WAIT } from '../../packages/core/src/testing/real-wait.js';
import { BLITZ_BIN, REPO_ROOT, runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { textOf } from '../support/hub-client.js';

let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;
let client: Client | undefined;

beforeEach(() => {
  home = tempDir('blitz-connect-');
  workspace = tempDir('blitz-connect-ws-');
  const { command, args } = fixtureCommand('env-dump');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "fix"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\n`,
  );
});

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  if (daemon) await daemon.stop();
  daemon = undefined;
  // A daemon `blitz connect` started in the background.
  if (readDaemonState(home)) await runBlitz(['daemon', 'stop'], { home });
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

function connectTransport(args: string[] = []): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [BLITZ_BIN, 'connect', '--workspace', workspace, ...args],
    env: { PATH: process.env.PATH!, HOME: home, BLITZ_HOME: home },
    stderr: 'pipe',
  });
}

describe('blitz connect', () => {
  it('starts the daemon when none runs and bridges a real client to it', async () => {
    expect(readDaemonState(home)).toBeUndefined();
    client = new Client({ name: 'connect-test', version: '1' });
    await client.connect(connectTransport());
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_mcp_resources', 'read_mcp_resource', 'echo', 'env']);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'through stdio' } }))).toBe('through stdio');
    expect(readDaemonState(home)).toBeDefined();
  });

  it('a --workspace that does not exist is said at once, without starting a daemon or blaming one', async () => {
    const missing = path.join(workspace, 'no-such-project');
    const result = await runBlitz(['connect', '--workspace', missing], { home });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(`blitz: the workspace ${missing} does not exist (--workspace)\n`);
    expect(readDaemonState(home)).toBeUndefined();
  });

  it('an unknown --mode is said at once, without starting a daemon or blaming one', async () => {
    const result = await runBlitz(['connect', '--mode', 'write'], { home, cwd: workspace });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe('blitz: unknown mode write (--mode): use read-only, or leave --mode out\n');
    expect(readDaemonState(home)).toBeUndefined();
  });

  it('read-only mode and agents pass through', async () => {
    client = new Client({ name: 'connect-test', version: '1' });
    await client.connect(connectTransport(['--mode', 'read-only', '--agent', 'reviewer']));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_mcp_resources', 'read_mcp_resource']);
  });

  it('the daemon restarted under a connected client: the bridge re-initializes; the client sees list_changed at most', async () => {
    daemon = await startDaemonProcess(home);
    client = new Client({ name: 'connect-test', version: '1' });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    await client.connect(connectTransport());
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'before' } }))).toBe('before');
    expect(await daemon.stop()).toBe(0);
    daemon = undefined;
    // The next request finds the daemon gone; the bridge starts a new one and carries on.
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
    expect(changed).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
  });

  it('blitz daemon stop sticks under a connected client: its requests are refused, saying how to start it, until blitz daemon start (issue 26.8)', async () => {
    expect((await runBlitz(['daemon', 'start'], { home })).code).toBe(0);
    client = new Client({ name: 'connect-test', version: '1' });
    const transport = connectTransport();
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'before' } }))).toBe('before');
    const stopped = await runBlitz(['daemon', 'stop'], { home });
    expect(stopped.stdout).toMatch(
      /^Stopped the Blitz daemon \(pid \d+\)\. It stays stopped until blitz daemon start: clients that connect through blitz connect are told so, and not served, until then\.\n$/,
    );
    // The next request starts no daemon: it is refused with the way out.
    await expect(client.callTool({ name: 'echo', arguments: { text: 'after' } })).rejects.toThrow(
      'Blitz daemon unavailable: the Blitz daemon was stopped (blitz daemon stop) and stays stopped until you start it: blitz daemon start',
    );
    expect(readDaemonState(home)).toBeUndefined();
    expect(stderr).toContain(
      'blitz connect: the Blitz daemon was stopped (blitz daemon stop) and stays stopped until you start it: blitz daemon start',
    );
    expect((await runBlitz(['daemon', 'status'], { home })).stdout).toBe(
      'The Blitz daemon is not running (stopped with blitz daemon stop: clients do not start it). Start it: blitz daemon start\n',
    );
    // A new client, too: no daemon is started behind the user's back.
    const other = new Client({ name: 'connect-test-2', version: '1' });
    await expect(other.connect(connectTransport())).rejects.toThrow(/stays stopped until you start it: blitz daemon start/);
    await other.close().catch(() => undefined);
    expect(readDaemonState(home)).toBeUndefined();
    // Started again, the connected client carries on.
    expect((await runBlitz(['daemon', 'start'], { home })).code).toBe(0);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'started again' } }))).toBe('started again');
    // A daemon that ends otherwise (a crash, a kill) is started again by the next request, as before.
    expect(fs.existsSync(path.join(home, 'state', 'daemon-stopped'))).toBe(false);
  });

  it('the MCP inspector CLI drives blitz connect: tools/list and tools/call', async () => {
    daemon = await startDaemonProcess(home);
    const inspector = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'cli.js');
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [inspector, '--cli', process.execPath, BLITZ_BIN, 'connect', '--workspace', workspace, ...args],
          // Run from a folder whose parent has a package.json (a packaging bug of inspector-cli 1.0.3).
          { cwd: path.join(REPO_ROOT, 'test'), env: { PATH: process.env.PATH, HOME: home, BLITZ_HOME: home }, timeout: 30_000 },
          (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }),
        );
      });
    const list = await run(['--method', 'tools/list']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).tools.map((t: { name: string }) => t.name)).toContain('echo');
    const call = await run(['--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'text=from the inspector']);
    expect(JSON.parse(call.stdout).content[0].text).toBe('from the inspector');
  });

  it('a call in flight when the daemon stops gets an error saying it may have run, and is never sent twice', async () => {
    const calls = path.join(home, 'hang-calls.txt');
    const { command, args } = fixtureCommand('hang-call');
    writeSettings(
      home,
      `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "slow"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\nenv = { HANG_CALLS_FILE = ${JSON.stringify(calls)} }\n`,
    );
    daemon = await startDaemonProcess(home);
    client = new Client({ name: 'connect-test', version: '1' });
    await client.connect(connectTransport());
    await client.listTools();
    const call = client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 60_000 }).then(
      () => new Error('answered'),
      (err: Error) => err,
    );
    await expect
      .poll(() => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n').length : 0), { timeout: 10_000 })
      .toBe(1);
    expect(await daemon.stop()).toBe(0);
    daemon = undefined;
    expect((await call).message).toMatch(/may or may not have run/);
    // The bridge carries on with a new daemon; the hang call was not replayed there.
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
    expect(fs.readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  // /proc/net/unix, where the test sees which way the bridge came in, is Linux's.
  it.skipIf(process.platform !== 'linux')(
    'reaches the daemon over its 0600 local socket beside daemon.json; over the port once the socket is gone',
    async () => {
      daemon = await startDaemonProcess(home);
      const socket = path.join(home, 'state', 'mcp.sock');
      expect(readDaemonState(home)?.socket).toBe(socket);
      const stat = fs.statSync(socket);
      expect(stat.isSocket()).toBe(true);
      expect(stat.mode & 0o777).toBe(0o600);
      client = new Client({ name: 'connect-test', version: '1' });
      await client.connect(connectTransport());
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'over the socket' } }))).toBe('over the socket');
      // Linux lists each connection accepted on a bound socket under its path (state 03: connected).
      expect(connectedAt(socket)).toBe(1);
      await client.close();
      fs.rmSync(socket);
      client = new Client({ name: 'connect-test', version: '1' });
      await client.connect(connectTransport());
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'over the port' } }))).toBe('over the port');
      // The first connection's daemon side closes on its own time; the second, still open, is not on the socket.
      await expect.poll(() => connectedAt(socket), REAL_WAIT).toBe(0);
    },
  );

  // A named pipe on Windows leaves no file behind to look for.
  it.skipIf(process.platform === 'win32')('the daemon removes its socket when it stops', async () => {
    daemon = await startDaemonProcess(home);
    const socket = readDaemonState(home)!.socket!;
    expect(fs.existsSync(socket)).toBe(true);
    expect(await daemon.stop()).toBe(0);
    daemon = undefined;
    expect(fs.existsSync(socket)).toBe(false);
  });
});

/** Connections accepted on the Unix domain socket bound at `socket`, from /proc/net/unix. */
function connectedAt(socket: string): number {
  return fs
    .readFileSync('/proc/net/unix', 'utf8')
    .split('\n')
    .filter((line) => line.endsWith(` ${socket}`) && line.trim().split(/\s+/)[5] === '03').length;
}
