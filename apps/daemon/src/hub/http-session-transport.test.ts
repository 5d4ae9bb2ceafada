import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { HttpSessionTransport } from './http-session-transport.js';
import { KEEP_ALIVE_COMMENT, KEEP_ALIVE_MS } from './sse-keep-alive.js';

let server: http.Server;
let transport: HttpSessionTransport;
let url: string;
let received: JSONRPCMessage[];
let clock: FakeClock;

beforeEach(async () => {
  received = [];
  clock = new FakeClock();
  transport = new HttpSessionTransport(() => 'session-1', clock);
  // An echo peer: answers every request with its method, after a progress notification when asked.
  transport.onmessage = (message) => {
    received.push(message);
    if (!('id' in message) || !('method' in message)) return;
    if (message.method === 'hang') return;
    if (message.method === 'slow')
      void transport.send(
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
        { relatedRequestId: message.id },
      );
    void transport.send({ jsonrpc: '2.0', id: message.id, result: { method: message.method } });
  };
  server = http.createServer((req, res) => void transport.handleRequest(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterEach(async () => {
  await transport.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const post = (body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
};

describe('HttpSessionTransport', () => {
  it('answers a request nested too deep with -32602 on its own POST, passing nothing of it on; the rest of a batch is served', async () => {
    await post(initialize);
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const body = `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"x":${deep}}}},{"jsonrpc":"2.0","id":2,"method":"ping"}]`;
    const response = await post(body);
    expect(response.status).toBe(200);
    // A batch's answers come in any order (JSON-RPC 2.0): the refusal, made at once, first.
    expect(await response.json()).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32602,
          message: 'Invalid params: the message nests objects and arrays deeper than 64 levels; it was not passed on',
        },
      },
      { jsonrpc: '2.0', id: 2, result: { method: 'ping' } },
    ]);
    expect(received.map((m) => ('method' in m ? m.method : ''))).toEqual(['initialize', 'ping']);
  });

  it('gives the session id on initialize and answers a request with plain JSON', async () => {
    const response = await post(initialize);
    expect(response.headers.get('mcp-session-id')).toBe('session-1');
    expect(response.headers.get('content-type')).toBe('application/json');
    // Sent whole, with its length, not chunked.
    const text = await response.text();
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(response.headers.get('transfer-encoding')).toBeNull();
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 0, result: { method: 'initialize' } });
  });

  it('refuses a body that is not JSON, and one past 4 MB, saying which', async () => {
    const garbage = await post('{"jsonrpc": nope');
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the body is not JSON' },
    });
    const huge = await post({ ...initialize, params: { ...initialize.params, padding: 'x'.repeat(5 * 1024 * 1024) } });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({
      error: {
        code: -32600,
        message: expect.stringMatching(/^Invalid Request: a body of \d+ bytes is more than the limit of 4194304 bytes$/),
      },
    });
    expect(received).toEqual([]);
  });

  it('answers a batch with an array, once every request is answered', async () => {
    await post(initialize);
    const response = await post([
      { jsonrpc: '2.0', id: 1, method: 'a' },
      { jsonrpc: '2.0', method: 'notifications/x' },
      { jsonrpc: '2.0', id: 2, method: 'b' },
    ]);
    expect(await response.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: { method: 'a' } },
      { jsonrpc: '2.0', id: 2, result: { method: 'b' } },
    ]);
  });

  it('switches to SSE when something must reach the client before the answer', async () => {
    await post(initialize);
    const response = await post({ jsonrpc: '2.0', id: 5, method: 'slow' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text())
      .trim()
      .split('\n\n')
      .map((e) => JSON.parse(e.split('data: ')[1]!));
    expect(events).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
      { jsonrpc: '2.0', id: 5, result: { method: 'slow' } },
    ]);
  });

  it('accepts notifications alone with 202, refuses garbage with 400, a second initialize with 400', async () => {
    await post(initialize);
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await post('{not json')).status).toBe(400);
    expect((await post({ hello: 'world' })).status).toBe(400);
    expect((await post(initialize)).status).toBe(400);
    expect(received.map((m) => ('method' in m ? m.method : ''))).toEqual(['initialize', 'notifications/initialized']);
  });

  it('past initialize, refuses an MCP-Protocol-Version it does not speak with 400, and serves a known one or none', async () => {
    const versioned = (version: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': version },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
      });
    // initialize itself carries its version in its params, so its header is not asked about.
    expect(
      (
        await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '1999-01-01',
          },
          body: JSON.stringify(initialize),
        })
      ).status,
    ).toBe(200);
    const refused = await versioned('1999-01-01');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: expect.stringMatching(/^Bad Request: unsupported MCP-Protocol-Version 1999-01-01 \(supported: .*2025-06-18.*\)$/),
      },
    });
    expect((await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '1999-01-01' } })).status).toBe(400);
    expect(await (await versioned('2025-06-18')).json()).toEqual({ jsonrpc: '2.0', id: 3, result: { method: 'ping' } });
    expect(await (await post({ jsonrpc: '2.0', id: 4, method: 'ping' })).json()).toEqual({
      jsonrpc: '2.0',
      id: 4,
      result: { method: 'ping' },
    });
    expect(received.map((m) => ('method' in m ? m.method : ''))).toEqual(['initialize', 'ping', 'ping']);
  });

  it('sends messages not tied to a request on the one standalone stream; DELETE closes the session', async () => {
    await post(initialize);
    const controller = new AbortController();
    const stream = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect((await fetch(url)).status).toBe(409);
    const reader = stream.body!.getReader();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    const chunk = new TextDecoder().decode((await reader.read()).value);
    expect(chunk).toBe('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n');
    controller.abort();
    let closed = false;
    transport.onclose = () => (closed = true);
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(200);
    expect(closed).toBe(true);
  });

  it('keeps a quiet standalone stream alive with an SSE comment every 25 s, until it closes', async () => {
    await post(initialize);
    const controller = new AbortController();
    const stream = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    const reader = stream.body!.getReader();
    const next = async () => new TextDecoder().decode((await reader.read()).value);
    clock.advance(KEEP_ALIVE_MS - 1);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(await next()).toMatch(/^event: message\n/);
    clock.advance(1);
    expect(await next()).toBe(KEEP_ALIVE_COMMENT);
    clock.advance(KEEP_ALIVE_MS);
    expect(await next()).toBe(KEEP_ALIVE_COMMENT);
    expect(clock.pendingTimers()).toBe(1);
    controller.abort();
    await expect.poll(() => clock.pendingTimers()).toBe(0);
  });

  it('closing answers a request still open with an error that says it may have run, never an empty answer', async () => {
    await post(initialize);
    const pending = post({ jsonrpc: '2.0', id: 9, method: 'hang' });
    await expect.poll(() => received.length).toBe(2);
    await transport.close();
    const response = await pending;
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: {
        code: -32000,
        message: 'the Blitz session closed (the daemon is stopping) before this request was answered; it may or may not have run',
      },
    });
  });
});
