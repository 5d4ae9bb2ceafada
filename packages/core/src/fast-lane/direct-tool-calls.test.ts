import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { CallCancellation } from './call-signal.js';
import { callToolResultProblem, DirectToolCalls } from './direct-tool-calls.js';

/**
 * An SDK client connected to a scripted server (the other end of a linked pair), with direct
 * calls over the client's transport. `answer` decides what the server sends for each request.
 */
async function connected(answer: (request: JSONRPCRequest, send: (m: JSONRPCMessage) => void) => void) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  const send = (m: JSONRPCMessage) => void serverSide.send(m);
  serverSide.onmessage = (m) => {
    received.push(m);
    if (!('method' in m) || !('id' in m)) return;
    if (m.method === 'initialize')
      send({
        jsonrpc: '2.0',
        id: m.id,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: 'scripted', version: '1' },
        },
      });
    else answer(m, send);
  };
  await serverSide.start();
  const client = new Client({ name: 'test', version: '1' });
  const clientErrors: Error[] = [];
  client.onerror = (e) => clientErrors.push(e);
  await client.connect(clientSide);
  const clock = new FakeClock(0);
  const direct = new DirectToolCalls(clientSide, clock);
  const calls = () => received.filter((m): m is JSONRPCRequest => 'method' in m && m.method === 'tools/call');
  return { client, direct, clock, send, received, calls, clientErrors, serverSide };
}

describe('DirectToolCalls', () => {
  it('answers with the result as the server sent it, every field kept, content there even when left out', async () => {
    const results = [
      {
        content: [
          { type: 'text', text: 'hi', annotations: { audience: ['user'] }, _meta: { k: 1 } },
          { type: 'resource_link', uri: 'file:///a', name: 'a', extra: 'kept' },
        ],
        structuredContent: { n: 1 },
        _meta: { trace: 'x' },
        somethingNew: true,
      },
      { structuredContent: { only: true } },
    ];
    const { direct, calls } = await connected((request, send) =>
      send({ jsonrpc: '2.0', id: request.id, result: results[calls().length - 1]! }),
    );
    expect(await direct.call('echo', { message: 'm' }, { timeoutMs: 1000 })).toEqual(results[0]);
    expect(await direct.call('echo', {}, { timeoutMs: 1000 })).toEqual({ structuredContent: { only: true }, content: [] });
    expect(calls()[0]).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'm' } },
    });
  });

  it('takes the progress of its call, without the token, before the result; other messages still reach the SDK client', async () => {
    const { client, direct, send, clientErrors } = await connected((request, reply) => {
      const token = (request.params as { _meta?: { progressToken?: number } })._meta?.progressToken;
      reply({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token!, progress: 1, total: 2, message: 'half' },
      });
      reply({ jsonrpc: '2.0', id: request.id, result: { content: [] } });
    });
    let listChanged = false;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (listChanged = true));
    const progress: unknown[] = [];
    await direct.call('slow', {}, { timeoutMs: 1000, onprogress: (p) => progress.push(p) });
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'half' }]);
    // Neither the progress nor the answer reached the SDK client, which knows neither.
    expect(clientErrors).toEqual([]);
    send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await expect.poll(() => listChanged).toBe(true);
  });

  it('rejects an error answer with its McpError: code, message and data as sent', async () => {
    const { direct } = await connected((request, send) =>
      send({ jsonrpc: '2.0', id: request.id, error: { code: -32602, message: 'bad args', data: { field: 'x' } } }),
    );
    const error = await direct.call('t', {}, { timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602, message: 'MCP error -32602: bad args', data: { field: 'x' } });
  });

  it('on timeout, tells the server the call is cancelled and rejects with RequestTimeout; a late answer goes nowhere', async () => {
    const { direct, clock, received, calls, send } = await connected(() => undefined);
    const call = direct.call('hang', {}, { timeoutMs: 5000 });
    await expect.poll(() => calls().length).toBe(1);
    clock.advance(5000);
    await expect(call).rejects.toMatchObject({ code: ErrorCode.RequestTimeout, data: { timeout: 5000 } });
    await expect
      .poll(() => received.at(-1))
      .toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: calls()[0]!.id, reason: 'Request timed out' } });
    send({ jsonrpc: '2.0', id: calls()[0]!.id, result: { content: [] } });
  });

  it('on abort, tells the server the call is cancelled, with the reason, and rejects', async () => {
    const { direct, received, calls } = await connected(() => undefined);
    const cancel = new CallCancellation();
    const call = direct.call('hang', {}, { timeoutMs: 5000, signal: cancel });
    await expect.poll(() => calls().length).toBe(1);
    cancel.abort('the user gave up');
    await expect(call).rejects.toMatchObject({ code: ErrorCode.RequestTimeout, message: expect.stringContaining('the user gave up') });
    await expect
      .poll(() => received.at(-1))
      .toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: calls()[0]!.id, reason: 'the user gave up' } });
    // Already aborted: nothing is sent.
    await expect(direct.call('hang', {}, { timeoutMs: 5000, signal: cancel })).rejects.toBe('the user gave up');
    expect(calls()).toHaveLength(1);
  });

  it('when the connection closes, a call in flight rejects with ConnectionClosed, and so does a later one', async () => {
    const { direct, calls, serverSide } = await connected(() => undefined);
    const call = direct.call('hang', {}, { timeoutMs: 5000 });
    await expect.poll(() => calls().length).toBe(1);
    await serverSide.close();
    await expect(call).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
    await expect(direct.call('t', {}, { timeoutMs: 5000 })).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
  });

  it('rejects a result that is not a CallToolResult, naming what is wrong', async () => {
    const { direct } = await connected((request, send) =>
      send({ jsonrpc: '2.0', id: request.id, result: { content: [{ text: 'no type' }] } }),
    );
    await expect(direct.call('t', {}, { timeoutMs: 1000 })).rejects.toThrow(
      'the result of tools/call is not a CallToolResult: a "content" block without a "type"',
    );
  });

  it('takes no tool with an output schema or task support: the SDK client validates and runs those', () => {
    const tool = { name: 't', inputSchema: { type: 'object' as const } };
    expect(DirectToolCalls.takes(tool)).toBe(true);
    expect(DirectToolCalls.takes({ ...tool, execution: { taskSupport: 'forbidden' } })).toBe(true);
    expect(DirectToolCalls.takes({ ...tool, outputSchema: { type: 'object' } })).toBe(false);
    expect(DirectToolCalls.takes({ ...tool, execution: { taskSupport: 'optional' } })).toBe(false);
    expect(DirectToolCalls.takes(undefined)).toBe(false);
  });
});

describe('callToolResultProblem', () => {
  it('names the field that is wrong, and passes a result with fields it does not know', () => {
    expect(callToolResultProblem({ content: [], anything: 1 })).toBeUndefined();
    expect(callToolResultProblem('x')).toBe('not an object');
    expect(callToolResultProblem({ content: {} })).toBe('"content" is not an array');
    expect(callToolResultProblem({ content: [], structuredContent: [1] })).toBe('"structuredContent" is not an object');
    expect(callToolResultProblem({ content: [], isError: 'yes' })).toBe('"isError" is not a boolean');
    expect(callToolResultProblem({ content: [], _meta: 3 })).toBe('"_meta" is not an object');
  });
});
