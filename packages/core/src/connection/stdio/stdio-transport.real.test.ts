import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerConfig } from '../../config/server-config.js';
import { FakeClock } from '@blitz/clock';
import { isBlitzError, type BlitzError } from '../../errors/blitz-error.js';
import { fixtureCommand, type FixtureName } from '../../testing/fixture-servers.js';
import { assertNoOrphans, isAlive } from '../../testing/no-orphans.js';
import { serverConfig as baseConfig } from '../../testing/server-config.js';
import { createSandbox } from './sandbox.js';
import { createStdioTransport, type SpawnServerDeps } from './spawn-server.js';
import type { StdioTransport } from './stdio-transport.js';
import { REAL_WAIT } from '../../testing/real-wait.js';

const transports: StdioTransport[] = [];
const tmpDirs: string[] = [];

function tmpDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'blitz-stdio-'));
  tmpDirs.push(dir);
  return dir;
}

function serverConfig(
  name: string,
  fixture: FixtureName,
  options: { args?: string[]; env?: Record<string, string>; sandbox?: boolean } = {},
): ServerConfig {
  const line = fixtureCommand(fixture, options.args);
  return baseConfig(name, {
    transport: { kind: 'stdio', command: line.command, args: line.args, env: options.env ?? {} },
    sandbox: options.sandbox ?? false,
    timeoutSeconds: 60,
  });
}

function deps(overrides: Partial<SpawnServerDeps> = {}): SpawnServerDeps {
  return { workspaceDir: tmpDir(), sandbox: createSandbox({ blitzHome: tmpDir(), warn: () => {} }), graceMs: 200, ...overrides };
}

function transportFor(config: ServerConfig, overrides: Partial<SpawnServerDeps> = {}): StdioTransport {
  const transport = createStdioTransport(config, deps(overrides));
  transports.push(transport);
  return transport;
}

async function connect(transport: StdioTransport, options: { timeout?: number } = {}): Promise<Client> {
  const client = new Client({ name: 'blitz-test', version: '0.0.0' });
  await client.connect(transport, options);
  return client;
}

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

afterEach(async () => {
  const sessions = transports.flatMap((t) => (t.process?.pid === undefined ? [] : [t.process.pid]));
  await Promise.all(transports.splice(0).map((t) => t.close()));
  for (const dir of tmpDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await assertNoOrphans({ sessions });
});

describe('StdioTransport with an SDK Client', () => {
  it('a message that cannot be written as JSON fails as INVALID_ARGUMENT, not as a server that does not read; the server carries on', async () => {
    const client = await connect(transportFor(serverConfig('fine', 'hang-call')));
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const err = await client.callTool({ name: 'echo', arguments: { text: deep } }).catch((e: unknown) => e);
    expect(isBlitzError(err, 'INVALID_ARGUMENT')).toBe(true);
    expect((err as Error).message).toMatch(/^the message for MCP server fine cannot be written as JSON: /);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
  });

  it('shakes hands, lists tools and calls one', async () => {
    const client = await connect(transportFor(serverConfig('hangs', 'hang-call')));
    expect(client.getServerVersion()?.name).toBe('hang-call');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['echo', 'hang']);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    await client.close();
  });

  it("hands on every progress notification that arrives in one read with its call's result (the SDK dropped the last ones)", async () => {
    const client = await connect(transportFor(serverConfig('burst', 'progress-burst')));
    const seen: number[] = [];
    const result = await client.callTool({ name: 'burst', arguments: {} }, undefined, { onprogress: (p) => seen.push(p.progress) });
    expect(textOf(result)).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('delivers tools/list_changed when the server adds a tool', async () => {
    const client = await connect(transportFor(serverConfig('changing', 'changing-tools')));
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    await client.callTool({ name: 'add_tool', arguments: { name: 'fresh' } });
    await vi.waitFor(() => expect(changed).toBeGreaterThan(0), REAL_WAIT);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('fresh');
  });

  it('times out on a server that never answers initialize, and cleans it up', async () => {
    const transport = transportFor(serverConfig('mute', 'hang-initialize'));
    const err = await connect(transport, { timeout: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(ErrorCode.RequestTimeout);
  });

  it('keeps the connection through a hung call', async () => {
    const client = await connect(transportFor(serverConfig('hangs', 'hang-call')));
    const err = await client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 200 }).catch((e: unknown) => e);
    expect((err as McpError).code).toBe(ErrorCode.RequestTimeout);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
  });

  it('fails a call in flight the moment the server crashes, with its exit code and stderr', async () => {
    const transport = transportFor(serverConfig('crashy', 'crash-after', { args: ['1'] }));
    const client = await connect(transport);
    const closed = new Promise<void>((resolve) => (client.onclose = resolve));
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'one' } }))).toBe('one');

    const began = Date.now();
    const err = await client
      .callTool({ name: 'echo', arguments: { text: 'two' } }, undefined, { timeout: 60_000 })
      .catch((e: unknown) => e);
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(ErrorCode.ConnectionClosed);
    expect((err as Error).message).toContain('MCP server crashy exited with code 3');
    expect((err as Error).message).toContain('crash-after: boom after 1 calls');
    await closed;
    expect(transport.exitError?.code).toBe('SERVER_EXITED');
    await expect(client.callTool({ name: 'echo', arguments: { text: 'three' } })).rejects.toThrow();
  });

  it('fails a call in flight when the server closes its stdout and keeps running, and stops it (issue 25.7)', async () => {
    const transport = transportFor(serverConfig('mute', 'close-stdout'));
    const client = await connect(transport);
    const closed = new Promise<void>((resolve) => (client.onclose = resolve));
    const pid = transport.process!.pid!;
    // Far past the test's own timeout: only the end of its stdout can end the call.
    const err = await client.callTool({ name: 'close_stdout', arguments: {} }, undefined, { timeout: 600_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect(err).toMatchObject({ code: ErrorCode.ConnectionClosed, data: { code: 'SERVER_UNAVAILABLE', reason: 'STDOUT_CLOSED' } });
    expect((err as Error).message).toContain(
      'MCP server mute closed its stdout but kept running, so it can answer nothing more; it was stopped',
    );
    expect((err as Error).message).toContain('close-stdout: closed fd 1, still running');
    await closed;
    expect(isAlive(pid)).toBe(false);
    expect([transport.exitError?.code, transport.exitError?.reason]).toEqual(['SERVER_UNAVAILABLE', 'STDOUT_CLOSED']);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'after' } })).rejects.toThrow();
  });

  it('fails to connect to a server that exits at start, quoting its stderr', async () => {
    const transport = transportFor(serverConfig('broken', 'exit-at-start'));
    const err = await connect(transport).catch((e: unknown) => e);
    expect((err as Error).message).toContain('MCP server broken exited with code 1');
    expect((err as Error).message).toContain('exit-at-start: FAKE_API_KEY is not set');
    expect(transport.exitError?.code).toBe('SERVER_EXITED');
  });

  it('reports the exit, not EPIPE, when a write meets a process on its way out', async () => {
    const config = serverConfig('closing', 'env-dump');
    const script =
      "require('node:fs').closeSync(0); process.stderr.write('stdin closed on purpose\\n'); setTimeout(() => process.exit(4), 150)";
    config.transport = { kind: 'stdio', command: process.execPath, args: ['-e', script], env: {} };
    const transport = transportFor(config);
    await transport.start();
    await vi.waitFor(() => expect(transport.process!.stderr.text()).toContain('stdin closed on purpose'), REAL_WAIT);
    // Nobody reads the pipe any more: this write fails with EPIPE before the exit is noticed.
    const err = await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }).catch((e: unknown) => e);
    expect(isBlitzError(err, 'SERVER_EXITED')).toBe(true);
    expect((err as Error).message).toBe('MCP server closing exited with code 4; its stderr ends with:\nstdin closed on purpose');
  });

  it('a call whose write meets a dying process fails with the exit and its stderr, not the SDK\'s "Connection closed"', async () => {
    // Answers initialize, then stops reading: the next write fails (EPIPE) before the exit is seen.
    const script = `
      const rl = require('node:readline').createInterface({ input: process.stdin });
      rl.on('line', (line) => {
        const msg = JSON.parse(line);
        if (msg.method === 'initialize') {
          process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'x', version: '0' } } }) + '\\n');
        } else if (msg.method === 'notifications/initialized') {
          rl.close();
          process.stdin.destroy();
          // Node keeps fd 0 open after destroy(): close it for real, once the stream has let go.
          setTimeout(() => {
            require('node:fs').closeSync(0);
            process.stderr.write('stdin closed on purpose\\n');
            setTimeout(() => process.exit(4), 1000);
          }, 100);
        }
      });`;
    const config = serverConfig('closing', 'env-dump');
    config.transport = { kind: 'stdio', command: process.execPath, args: ['-e', script], env: {} };
    const transport = transportFor(config);
    const client = await connect(transport);
    await vi.waitFor(() => expect(transport.process!.stderr.text()).toContain('stdin closed on purpose'), { timeout: 10_000 });
    const err = await client.callTool({ name: 'anything', arguments: {} }).catch((e: unknown) => e);
    expect((err as Error).message).toContain('MCP server closing exited with code 4; its stderr ends with:\nstdin closed on purpose');
  });

  it('fails to connect to a command that does not exist with SERVER_UNAVAILABLE, saying it is not on PATH', async () => {
    const config = serverConfig('ghost', 'env-dump');
    config.transport = { kind: 'stdio', command: 'blitz-no-such-command-here', args: [], env: {} };
    const err = await connect(transportFor(config)).catch((e: unknown) => e);
    expect(isBlitzError(err, 'SERVER_UNAVAILABLE')).toBe(true);
    expect((err as Error).message).toBe('MCP server ghost could not start: blitz-no-such-command-here is not on PATH');
    expect((err as BlitzError).serverCause).toEqual({ code: 'COMMAND_NOT_FOUND', command: 'blitz-no-such-command-here' });
  });

  it('skips lines on stdout that are not JSON-RPC', async () => {
    const transport = transportFor(serverConfig('noisy', 'garbage-stdout'));
    const client = await connect(transport);
    const errors: Error[] = [];
    client.onerror = (e) => errors.push(e);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'a' } }))).toBe('a');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'b' } }))).toBe('b');
    expect(transport.garbageLines).toBe(5);
    expect(errors).toHaveLength(4);
    expect(errors[0]!.message).toContain('MCP server noisy wrote a line to stdout that is not JSON-RPC');
  });

  it('keeps the last 64 KB of a stderr flood and keeps working', async () => {
    const transport = transportFor(serverConfig('flood', 'flood-stderr', { args: ['3'] }));
    const client = await connect(transport);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'ok' } }))).toBe('ok');
    const stderr = transport.process!.stderr;
    // stderr is a separate pipe: its tail may still be on the way when the answer arrives.
    await vi.waitFor(() => expect(stderr.lastLines(1)).toEqual(['flood-stderr: last line']), REAL_WAIT);
    expect(stderr.size).toBe(64 * 1024);
    expect(stderr.lastLines(2)[0]).toMatch(/^flood 0003071 x+$/);
  });

  it('ends a server that ignores SIGTERM and stdin close by SIGKILL', async () => {
    // Each grace period runs on a fake clock, moved on only once the server has had its say:
    // a loaded machine may take longer than any real grace period to run its handler.
    const clock = new FakeClock();
    const transport = transportFor(serverConfig('stubborn', 'ignore-sigterm'), { graceMs: 100, clock });
    const client = await connect(transport);
    const closing = client.close();
    await vi.waitFor(() => expect(transport.process!.stderr.text()).toContain('ignoring end of stdin'), { timeout: 10_000 });
    await vi.waitFor(() => expect(clock.pendingTimers()).toBeGreaterThan(0), REAL_WAIT);
    clock.advance(100);
    await vi.waitFor(() => expect(transport.process!.stderr.text()).toContain('ignoring SIGTERM'), { timeout: 10_000 });
    clock.advance(100);
    await closing;
    expect(transport.process!.exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(transport.exitError).toBeUndefined();
  });

  it('takes down a grandchild with the server', async () => {
    const pidFile = path.join(tmpDir(), 'grandchild.pid');
    const transport = transportFor(serverConfig('parent', 'spawn-grandchild', { env: { GRANDCHILD_PID_FILE: pidFile } }));
    const client = await connect(transport);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(grandchild)).toBe(true);
    await client.close();
    await vi.waitFor(() => expect(isAlive(grandchild)).toBe(false), REAL_WAIT);
  });

  describe('environment', () => {
    afterEach(() => {
      delete process.env.BLITZ_TEST_SECRET;
    });

    it('gives the server a scrubbed environment plus its own env, and the workspace as cwd', async () => {
      process.env.BLITZ_TEST_SECRET = 'hunter2';
      const workspaceDir = tmpDir();
      const client = await connect(transportFor(serverConfig('envy', 'env-dump', { env: { OWN_SETTING: 'mine' } }), { workspaceDir }));
      const env = JSON.parse(textOf(await client.callTool({ name: 'env', arguments: {} }))) as Record<string, string>;
      expect(env.BLITZ_TEST_SECRET).toBeUndefined();
      expect(env.OWN_SETTING).toBe('mine');
      expect(env.PATH).toBe(process.env.PATH);
      const allowed = /^(PATH|HOME|USER|LOGNAME|LANG|LC_.*|TZ|TMPDIR|TERM|SHELL|OWN_SETTING)$/;
      // Node itself may add nothing; anything else came from the daemon and leaked.
      expect(Object.keys(env).filter((k) => !allowed.test(k))).toEqual([]);
    });
  });

  it('fails with the exact sandbox message when bwrap is missing', async () => {
    const sandbox = createSandbox({ blitzHome: tmpDir(), warn: () => {}, platform: 'linux', which: () => undefined });
    const transport = transportFor(serverConfig('boxed', 'env-dump', { sandbox: true }), { sandbox });
    const err = await connect(transport).catch((e: unknown) => e);
    expect(isBlitzError(err, 'FAILED_PRECONDITION')).toBe(true);
    expect((err as Error).message).toBe('sandbox unavailable: install bubblewrap, or set sandbox = false for boxed');
  });
});
