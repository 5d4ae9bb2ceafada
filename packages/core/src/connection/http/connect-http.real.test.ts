import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '@blitz/clock';
import type { ServerConfig } from '../../config/server-config.js';
import { startServer as startRestartable } from '../../../../../test/fixtures/http/restartable-server.mjs';
import { startServer as startRetryAfter } from '../../../../../test/fixtures/http/retry-after-server.mjs';
import { startServer as startUnauthorized } from '../../../../../test/fixtures/http/unauthorized-server.mjs';
import { connectHttp, type HttpConnectOptions } from './connect-http.js';
import type { RetryEvent } from './retrying-fetch.js';
import { serverConfig } from '../../testing/server-config.js';
import { REAL_WAIT } from '../../testing/real-wait.js';

function httpConfig(name: string, url: string, headers: Record<string, string> = {}): ServerConfig {
  return serverConfig(name, { transport: { kind: 'http', url, headers }, sandbox: false });
}

const options: HttpConnectOptions = { deadlineMs: 10_000, capabilities: {}, clientVersion: '0.1.0-test' };

/** Everything a test opens is closed after it, in reverse order, even when it fails. */
const cleanups: (() => Promise<unknown>)[] = [];
function track<T extends { close(): Promise<unknown> }>(thing: T): T {
  cleanups.push(() => thing.close());
  return thing;
}
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => {});
});

/** server-everything over streamable HTTP, on a port we found free; it says so on stderr once listening. */
async function startEverything(): Promise<{ url: string; close(): Promise<void> }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));

  const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const child: ChildProcess = spawn(process.execPath, [entry, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stopped = once(child, 'exit');
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await stopped;
  };
  cleanups.push(close);
  child.stdout?.resume();
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('listening on port')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${stderr}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, close };
}

/** Accepts connections and reads requests but never answers: a server stuck in its handshake. */
async function startSilentServer(): Promise<{ url: string; requests: IncomingMessage[]; close(): Promise<void> }> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((req) => requests.push(req));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return track({
    url,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

describe('connectHttp against server-everything', () => {
  it('connects, lists tools, calls echo and closes', async () => {
    const everything = await startEverything();
    const link = track(await connectHttp(httpConfig('everything', everything.url), options));
    expect(link.sessionId).toEqual(expect.any(String));
    expect(link.client.getServerVersion()?.name).toBe('mcp-servers/everything');

    // It registers more tools after initialize and its list_changed is lost before the GET stream opens.
    const { tools } = await link.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));

    const result = await link.client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);

    await link.close();
    await link.close();
    await everything.close();
  });

  it('a result streamed past the size limit fails its call at once, with the reason, and the session carries on', async () => {
    const everything = await startEverything();
    const errors: Error[] = [];
    const link = track(
      await connectHttp(httpConfig('everything', everything.url), {
        ...options,
        maxMessageBytes: () => 64 * 1024,
        onError: (e) => errors.push(e),
      }),
    );
    const big = link.client.callTool({ name: 'echo', arguments: { message: 'x'.repeat(100 * 1024) } }, undefined, { timeout: 60_000 });
    await expect(big).rejects.toThrow(
      'MCP server everything sent a message larger than the limit of 0.1 MB ([hub] max_result_mb); it was not passed on',
    );
    // No part of the cut event reached the SDK's parser.
    expect(errors.map((e) => e.message)).not.toContainEqual(expect.stringMatching(/JSON/));
    const result = await link.client.callTool({ name: 'echo', arguments: { message: 'small' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: small' }]);
  });
});

describe('connectHttp against fixture servers', () => {
  it('sends the configured headers and identifies as blitz', async () => {
    const server = track(await startRestartable());
    const link = track(await connectHttp(httpConfig('notes', server.url, { 'X-Api-Key': 'k-123' }), options));
    await link.client.listTools();
    expect(server.stats.lastHeaders['x-api-key']).toBe('k-123');
    const whoami = await link.client.callTool({ name: 'whoami' });
    expect(whoami.content).toEqual([{ type: 'text', text: link.sessionId }]);
  });

  it('ends the session with DELETE on close, once', async () => {
    const server = track(await startRestartable());
    const link = await connectHttp(httpConfig('notes', server.url), options);
    expect(server.sessionCount()).toBe(1);
    await link.close();
    await link.close();
    expect(server.stats.deletes).toBe(1);
    expect(server.sessionCount()).toBe(0);
  });

  it('settles lost when the transport closes without close(), not after close()', async () => {
    const server = track(await startRestartable());
    const link = track(await connectHttp(httpConfig('notes', server.url), options));
    await link.client.close();
    await expect(link.lost).resolves.toMatchObject({ code: 'SERVER_UNAVAILABLE', message: 'MCP server notes closed the connection' });

    const other = await connectHttp(httpConfig('notes', server.url), options);
    await other.close();
    const settled = await Promise.race([other.lost.then(() => true), new Promise((r) => setImmediate(() => r(false)))]);
    expect(settled).toBe(false);
  });

  it('retries initialize after 503s, waiting as Retry-After says', async () => {
    // Its 503s are for initialize: the discovery before it is refused as a 2025 server refuses it (HTTP 400).
    const server = track(await startRetryAfter({ failures: 2, retryAfter: '1', method: 'initialize' }));
    const clock = new FakeClock();
    const retries: RetryEvent[] = [];
    const connecting = connectHttp(httpConfig('flaky', server.url), { ...options, clock, onRetry: (e) => retries.push(e) });

    await vi.waitFor(() => expect(retries).toHaveLength(1), REAL_WAIT);
    // The retry waits on the clock: nothing falls due 1 ms early, its timer exactly at 1 s.
    const pending = clock.pendingTimers();
    clock.advance(999);
    expect(clock.pendingTimers()).toBe(pending);
    expect(server.stats.methods.initialize).toBe(1);
    clock.advance(1);
    expect(clock.pendingTimers()).toBe(pending - 1);
    await vi.waitFor(() => expect(retries).toHaveLength(2), REAL_WAIT);
    expect(server.stats.methods.initialize).toBe(2);
    clock.advance(1000);

    const link = track(await connecting);
    expect(retries.map((r) => [r.method, r.delayMs, r.reason])).toEqual([
      ['initialize', 1000, 'HTTP 503'],
      ['initialize', 1000, 'HTTP 503'],
    ]);
    expect(server.stats).toMatchObject({ rejected: 2, methods: { initialize: 3 } });
    expect(server.sessionStats.initialize).toBe(1);
    expect(link.sessionId).toEqual(expect.any(String));
  });

  it('does not replay a tools/call that got 503', async () => {
    const server = track(await startRetryAfter({ failures: 1, method: 'tools/call' }));
    const link = track(await connectHttp(httpConfig('flaky', server.url), options));
    const failed = link.client.callTool({ name: 'echo', arguments: { text: 'once' } });
    await expect(failed).rejects.toBeInstanceOf(StreamableHTTPError);
    await expect(failed).rejects.toMatchObject({ code: 503 });
    expect(server.stats.methods['tools/call']).toBe(1);

    const ok = await link.client.callTool({ name: 'echo', arguments: { text: 'twice' } });
    expect(ok.content).toEqual([{ type: 'text', text: 'twice' }]);
    expect(server.stats.methods['tools/call']).toBe(2);
  });

  it('turns a 401 into NEEDS_SIGN_IN, without retrying', async () => {
    const server = track(await startUnauthorized());
    await expect(connectHttp(httpConfig('notes', server.url), options)).rejects.toMatchObject({
      code: 'NEEDS_SIGN_IN',
      message: 'MCP server notes needs sign-in: run blitz mcp login notes',
    });
    expect(server.stats.posts).toBe(1);
  });

  it('gives up initialize at the deadline, naming the phase, and aborts the request', async () => {
    const server = await startSilentServer();
    const started = Date.now();
    await expect(connectHttp(httpConfig('slow', server.url), { ...options, deadlineMs: 300 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: 'MCP server slow did not answer initialize within 1s',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
    // The client hung up rather than leaving the request open.
    await vi.waitFor(() => expect(server.requests[0]?.socket.destroyed).toBe(true), REAL_WAIT);
  });

  it('times out on the injected clock', async () => {
    const server = await startSilentServer();
    const clock = new FakeClock();
    const connecting = connectHttp(httpConfig('slow', server.url), { ...options, clock, deadlineMs: 30_000 });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), REAL_WAIT);
    clock.advance(30_000);
    await expect(connecting).rejects.toMatchObject({ code: 'TIMEOUT', message: 'MCP server slow did not answer initialize within 30s' });
  });

  it('gives up when the caller aborts', async () => {
    const server = await startSilentServer();
    const abort = new AbortController();
    const connecting = connectHttp(httpConfig('slow', server.url), { ...options, signal: abort.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), REAL_WAIT);
    abort.abort();
    await expect(connecting).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('reports an unreachable server after retrying, without the query string', async () => {
    const silent = await startSilentServer();
    const url = `${silent.url}?token=secret`;
    await silent.close();
    const clock = new FakeClock();
    const retries: RetryEvent[] = [];
    const connecting = connectHttp(httpConfig('gone', url), { ...options, clock, onRetry: (e) => retries.push(e) });
    await vi.waitFor(() => expect(retries).toHaveLength(1), REAL_WAIT);
    clock.advance(250);
    await vi.waitFor(() => expect(retries).toHaveLength(2), REAL_WAIT);
    clock.advance(1000);
    const err = await connecting.catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SERVER_UNAVAILABLE' });
    expect((err as Error).message).toMatch(
      /^MCP server gone at http:\/\/127\.0\.0\.1:\d+\/mcp failed to initialize: fetch failed \(ECONNREFUSED\)$/,
    );
    expect(retries[0]?.reason).toBe('fetch failed (ECONNREFUSED)');
  });

  it('rejects a config that is not HTTP', async () => {
    const stdio: ServerConfig = { ...httpConfig('local', 'http://x'), transport: { kind: 'stdio', command: 'x', args: [], env: {} } };
    await expect(connectHttp(stdio, options)).rejects.toMatchObject({ code: 'INTERNAL' });
  });
});
