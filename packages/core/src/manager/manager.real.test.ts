/**
 * The manager against real servers: server-everything over stdio and streamable HTTP, and
 * the fixture servers of test/fixtures that hang, crash, spew or misbehave.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '@blitz/clock';
import type { ResolvedServer } from '../config/resolve-server.js';
import type { ServerConfig, ServerTransport } from '../config/server-config.js';
import { createConnector } from '../connection/create-connector.js';
import { probeBubblewrap } from '../connection/stdio/sandbox.js';
import { fixtureCommand, type FixtureName } from '../testing/fixture-servers.js';
import { assertNoOrphans, isAlive, liveDescendants } from '../testing/no-orphans.js';
import { freePort, waitForPort } from '../testing/listening-port.js';
import { startServer as startRestartable } from '../../../../test/fixtures/http/restartable-server.mjs';
import { Manager } from './manager.js';
import type { ManagerEvent } from './manager-event.js';
import { callByName } from '../testing/call-by-name.js';
import { resolvedServer } from '../testing/server-config.js';

const EVERYTHING = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const PLANTED = 'planted-daemon-secret-4242';

let tmp: string;
let workspace: string;
let manager: Manager;
let events: ManagerEvent[];

function server(name: string, transport: ServerTransport, over: Partial<ServerConfig> = {}): ResolvedServer {
  return resolvedServer(name, {
    transport,
    sandbox: false,
    timeoutSeconds: 30,
    startupTimeoutSeconds: 20,
    source: { kind: 'global', file: path.join(tmp, 'settings.toml') },
    ...over,
  });
}

function fixture(name: string, file: FixtureName, args: string[] = [], over: Partial<ServerConfig> = {}): ResolvedServer {
  const { command, args: argv } = fixtureCommand(file, args);
  return server(name, { kind: 'stdio', command, args: argv, env: {} }, over);
}

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-manager-')));
  workspace = path.join(tmp, 'workspace');
  fs.mkdirSync(workspace);
  fs.mkdirSync(path.join(tmp, 'home'));
  fs.mkdirSync(path.join(tmp, 'sandbox-tmp'));
  process.env.BLITZ_MANAGER_TEST_SECRET = PLANTED;
  events = [];
  manager = new Manager({
    workspace,
    clock: systemClock,
    // The sandbox's temp folder is one of ours, so the rest of tmp is outside what it may write.
    connector: createConnector({
      blitzHome: path.join(tmp, 'home'),
      tmpDir: path.join(tmp, 'sandbox-tmp'),
      clock: systemClock,
      clientVersion: '0.0.0-test',
      warn: () => {},
      graceMs: 500,
    }),
    onEvent: (e) => events.push(e),
  });
});

afterEach(async () => {
  await manager.close();
  delete process.env.BLITZ_MANAGER_TEST_SECRET;
  fs.rmSync(tmp, { recursive: true, force: true });
  await assertNoOrphans();
});

const textOf = (result: { content?: unknown }) =>
  (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('');

describe('server-everything', () => {
  it('over stdio: lists and calls echo; get-env shows its own env and none of the daemon secrets', async () => {
    await manager.update({
      servers: [
        server('everything', {
          kind: 'stdio',
          command: process.execPath,
          args: [EVERYTHING, 'stdio'],
          env: { MY_SETTING: 'from-settings' },
        }),
      ],
    });
    const names = (await manager.listTools()).map((e) => e.exposedName);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-env']));
    expect(textOf(await callByName(manager, 'echo', { message: 'hi' }))).toBe('Echo: hi');
    const env = textOf(await callByName(manager, 'get-env', {}));
    expect(env).toContain('from-settings');
    expect(env).not.toContain(PLANTED);
    expect(env).not.toContain('BLITZ_MANAGER_TEST_SECRET');
  });

  it('over streamable HTTP: lists and calls echo', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await waitForPort(port, child, 'server-everything');
      await manager.update({ servers: [server('remote', { kind: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} })] });
      expect((await manager.listTools()).map((e) => e.exposedName)).toEqual(expect.arrayContaining(['echo']));
      expect(textOf(await callByName(manager, 'echo', { message: 'over http' }))).toBe('Echo: over http');
    } finally {
      await manager.close();
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});

describe('remote servers', () => {
  it('a server that restarted under a connected client: the hub re-initializes and the call goes through', async () => {
    const fixtureServer = await startRestartable({ port: 0 });
    try {
      await manager.update({ servers: [server('r', { kind: 'http', url: fixtureServer.url, headers: {} })] });
      await manager.listTools();
      const first = textOf(await callByName(manager, 'whoami', {}));
      await fixtureServer.restart();
      const second = textOf(await callByName(manager, 'whoami', {}));
      expect(second).not.toBe(first);
      expect(manager.states()[0]!.state).toBe('connected');
    } finally {
      await manager.close();
      await fixtureServer.close();
    }
  });
});

describe('fixture servers', () => {
  it('a server that hangs on initialize fails within its startup timeout, naming the phase; the others work', async () => {
    await manager.update({
      servers: [fixture('stuck', 'hang-initialize', [], { startupTimeoutSeconds: 1 }), fixture('ok', 'garbage-stdout')],
    });
    const started = Date.now();
    expect((await manager.listTools()).map((e) => e.exposedName)).toEqual(['echo']);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(manager.states()[0]).toMatchObject({ state: 'failed', error: 'MCP server stuck did not answer initialize within 1s' });
  });

  it('a start that times out fails at once, its process stopped in the background and still owned: close waits until it is gone', async () => {
    await manager.update({ servers: [fixture('stuck', 'hang-initialize', ['stubborn'], { startupTimeoutSeconds: 1 })] });
    const err = (await manager
      .connection('stuck')
      .tools()
      .catch((e: unknown) => e)) as { code?: string };
    expect(err.code).toBe('TIMEOUT');
    // It ignores the end of stdin and SIGTERM: only the SIGKILL after two grace periods ends it.
    // The server itself, not the pid namespace's bubblewrap around it.
    const stopping = liveDescendants().filter((p) => p.command.startsWith(`${process.execPath} `) && p.command.includes('hang-initialize'));
    expect(stopping).toHaveLength(1);
    await manager.close();
    expect(isAlive(stopping[0]!.pid)).toBe(false);
  });

  it('close ends a start in flight at once rather than wait out its startup timeout: the process is stopped, the start fails as cancelled', async () => {
    const gate = path.join(tmp, 'never');
    await manager.update({ servers: [fixture('slow', 'gated-initialize', [gate], { startupTimeoutSeconds: 600 })] });
    const starting = manager
      .connection('slow')
      .tools()
      .catch((e: unknown) => e);
    let spawned = liveDescendants().filter((p) => p.command.includes('gated-initialize'));
    while (spawned.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      spawned = liveDescendants().filter((p) => p.command.includes('gated-initialize'));
    }
    await manager.close();
    expect(isAlive(spawned[0]!.pid)).toBe(false);
    expect(await starting).toMatchObject({ code: 'CANCELLED', message: 'MCP server slow was stopped while starting' });
  });

  it('a call that hangs times out with the spec message (MCP-31), and the server is told to cancel', async () => {
    await manager.update({ servers: [fixture('slow', 'hang-call', [], { timeoutSeconds: 1 })] });
    await manager.listTools();
    await expect(callByName(manager, 'hang', {})).rejects.toMatchObject({ code: 'TIMEOUT', message: 'MCP tool hang timed out after 1s' });
    await expect.poll(() => manager.connection('slow').stderrTail()).toMatch(/^cancelled request \d+$/m);
    // One timeout is not yet a pause; the server still answers.
    expect(textOf(await callByName(manager, 'echo', { text: 'still here' }))).toBe('still here');
  });

  it('two timeouts in a row pause the server: its tools leave and calls are refused (MCP-32)', async () => {
    await manager.update({ servers: [fixture('slow', 'hang-call', [], { timeoutSeconds: 1 })] });
    await manager.listTools();
    await expect(callByName(manager, 'hang', {})).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(callByName(manager, 'hang', {})).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(manager.states()[0]!.state).toBe('paused');
    expect(await manager.listTools()).toEqual([]);
    await expect(manager.connection('slow').callTool('echo', { text: 'x' })).rejects.toMatchObject({
      code: 'SERVER_UNAVAILABLE',
      message: expect.stringMatching(/^MCP server slow is unavailable after repeated failures; retrying in 1[45]s$/),
    });
    expect(events.flatMap((e) => (e.type === 'notice' ? [e.notice.kind] : []))).toEqual(['failed', 'paused']);
  });

  it('a crash mid-call fails the call at once with the exit code and stderr; the next call starts a fresh process', async () => {
    await manager.update({ servers: [fixture('crashy', 'crash-after', ['1'])] });
    await manager.listTools();
    const pid = manager.connection('crashy').pid!;
    expect(textOf(await callByName(manager, 'echo', { text: 'one' }))).toBe('one');
    const error = await callByName(manager, 'echo', { text: 'two' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVER_EXITED', message: expect.stringContaining('MCP server crashy exited with code 3') });
    expect(isAlive(pid)).toBe(false);
    expect(textOf(await callByName(manager, 'echo', { text: 'three' }))).toBe('three');
    expect(manager.connection('crashy').pid).not.toBe(pid);
    // One crash is one failure: heard once, then the recovery, never a pause.
    expect(events.flatMap((e) => (e.type === 'notice' ? [e.notice.kind] : []))).toEqual(['failed', 'recovered']);
  });

  it('a server that exits at start is failed with its stderr', async () => {
    await manager.update({ servers: [fixture('dead', 'exit-at-start')] });
    expect(await manager.listTools()).toEqual([]);
    expect(manager.states()[0]).toMatchObject({ state: 'failed', error: expect.stringContaining('exited with code 1') });
  });

  it('garbage on stdout and a flood on stderr do not break the connection', async () => {
    await manager.update({ servers: [fixture('garbage', 'garbage-stdout'), fixture('flood', 'flood-stderr', [], { prefix: 'f' })] });
    await manager.listTools();
    expect(textOf(await callByName(manager, 'echo', { text: 'a' }))).toBe('a');
    expect(textOf(await callByName(manager, 'f__echo', { text: 'b' }))).toBe('b');
  });

  it('close ends a server that ignores SIGTERM, and the grandchild of another, with their groups', async () => {
    const pidFile = path.join(tmp, 'grandchild.pid');
    const parent = fixture('parent', 'spawn-grandchild', [], { prefix: 'p' });
    if (parent.config.transport.kind === 'stdio') parent.config.transport.env = { GRANDCHILD_PID_FILE: pidFile };
    await manager.update({ servers: [fixture('stubborn', 'ignore-sigterm'), parent] });
    await manager.listTools();
    expect(fs.readFileSync(pidFile, 'utf8')).not.toBe('');
    // Its pid as we see it: in the server's pid namespace the file holds another.
    const [grandchild] = liveDescendants()
      .filter((p) => p.command === `${process.execPath} -e setInterval(() => {}, 1000)`)
      .map((p) => p.pid);
    expect(isAlive(grandchild!)).toBe(true);
    await manager.close();
    expect(isAlive(grandchild!)).toBe(false);
  });

  it("a server's tools/list_changed reaches the catalog", async () => {
    await manager.update({ servers: [fixture('changing', 'changing-tools')] });
    const before = (await manager.listTools()).map((e) => e.exposedName);
    await callByName(manager, 'add_tool', { name: 'brand_new' });
    await expect
      .poll(
        () =>
          manager
            .catalog()
            .list()
            .map((e) => e.exposedName),
        { timeout: 5_000 },
      )
      .toEqual([...before, 'brand_new']);
    expect(events.some((e) => e.type === 'catalog')).toBe(true);
  });
});

describe('sandbox', () => {
  const probe = probeBubblewrap();
  it.skipIf(!probe.ok)(
    `a sandboxed server cannot write outside the workspace nor read BLITZ_HOME ${probe.ok ? '' : `(skipped: ${probe.reason})`}`,
    async () => {
      const secret = path.join(tmp, 'home', 'settings.toml');
      fs.writeFileSync(secret, 'token = "x"');
      // Outside the workspace and the sandbox's temp folder, wherever HOME and the system temp are.
      const outside = path.join(tmp, 'outside.txt');
      await manager.update({ servers: [fixture('boxed', 'write-file', [], { sandbox: true })] });
      await manager.listTools();
      expect(textOf(await callByName(manager, 'write', { path: path.join(workspace, 'in.txt'), content: 'ok' }))).not.toMatch(/error/i);
      expect(fs.readFileSync(path.join(workspace, 'in.txt'), 'utf8')).toBe('ok');
      const denied = await callByName(manager, 'write', { path: outside, content: 'no' });
      expect(denied.isError).toBe(true);
      expect(fs.existsSync(outside)).toBe(false);
      const read = await callByName(manager, 'read', { path: secret });
      expect(read.isError).toBe(true);
      expect(textOf(read)).not.toContain('token');
    },
  );
});
