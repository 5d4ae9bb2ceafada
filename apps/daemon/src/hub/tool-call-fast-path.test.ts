import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolCallFastPath } from './tool-call-fast-path.js';
import type { ToolCallExtra, ToolCallHandler } from './tools-handlers.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

/** An SDK server whose own tools/call handler answers "sdk", behind the fast path with `handler`; and its client. */
async function session(handler: ToolCallHandler): Promise<{ client: Client; server: Server; closeServerSide(): Promise<void> }> {
  const server = new Server({ name: 'hub', version: '0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'sdk' }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(new ToolCallFastPath(serverSide, server, handler));
  const client = new Client({ name: 'c', version: '0' });
  await client.connect(clientSide);
  open.push(client, server);
  return { client, server, closeServerSide: () => serverSide.close() };
}

describe('ToolCallFastPath', () => {
  it('runs tools/call through the given handler, with the request and its id', async () => {
    const seen: Array<{ name: string; args: unknown; id: unknown }> = [];
    const { client } = await session(async (request, extra) => {
      seen.push({ name: request.params.name, args: request.params.arguments, id: extra.requestId });
      return { content: [{ type: 'text', text: 'fast' }] };
    });
    expect(await client.callTool({ name: 'echo', arguments: { message: 'hi' } })).toEqual({ content: [{ type: 'text', text: 'fast' }] });
    expect(seen).toEqual([{ name: 'echo', args: { message: 'hi' }, id: expect.anything() }]);
  });

  it('leaves a call of another shape to the SDK server, which answers it as it does without the fast path', async () => {
    const bad = { method: 'tools/call', params: { name: 'echo', arguments: 'not an object' } };
    const answer = (client: Client) => client.request(bad as never, CallToolResultSchema).catch((err: unknown) => err);
    const handler = vi.fn<ToolCallHandler>();
    const { client } = await session(handler);
    const plain = new Server({ name: 'hub', version: '0' }, { capabilities: { tools: {} } });
    plain.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'sdk' }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await plain.connect(serverSide);
    const plainClient = new Client({ name: 'c', version: '0' });
    await plainClient.connect(clientSide);
    open.push(plainClient, plain);
    // The SDK server answers -32603 with its schema library's multi-line report; the hub -32602, in one line (issue 25.5).
    const sdk = await answer(plainClient);
    expect(sdk).toMatchObject({ code: ErrorCode.InternalError, message: expect.stringContaining('\n') });
    const hub = await answer(client);
    expect(hub).toBeInstanceOf(McpError);
    expect(hub).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'MCP error -32602: Invalid params of tools/call: params.arguments: Invalid input: expected record, received string',
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it("answers a handler's error as the SDK does: its code, message and data", async () => {
    const { client } = await session(async () => {
      throw Object.assign(new Error('unknown tool nope'), { code: ErrorCode.InvalidParams, data: { tool: 'nope' } });
    });
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'MCP error -32602: unknown tool nope',
      data: { tool: 'nope' },
    });
  });

  it('sends progress related to the call, with its token', async () => {
    const { client } = await session(async (request, extra) => {
      const progressToken = request.params._meta?.progressToken;
      if (progressToken !== undefined)
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: 1, total: 2 } });
      return { content: [] };
    });
    const progress: unknown[] = [];
    await client.callTool({ name: 'slow', arguments: {} }, undefined, { onprogress: (p) => progress.push(p) });
    expect(progress).toEqual([{ progress: 1, total: 2 }]);
  });

  it('a notifications/cancelled for the call aborts it, and nothing is answered', async () => {
    let extraSeen: ToolCallExtra | undefined;
    let finish!: () => void;
    const { client } = await session(async (_request, extra) => {
      extraSeen = extra;
      await new Promise<void>((resolve) => (finish = resolve));
      return { content: [{ type: 'text', text: 'late' }] };
    });
    const controller = new AbortController();
    const call = client.callTool({ name: 'hang', arguments: {} }, undefined, { signal: controller.signal });
    await vi.waitFor(() => expect(extraSeen).toBeDefined());
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(extraSeen!.signal.aborted).toBe(true));
    finish();
  });

  it('aborts the calls in flight when the connection closes', async () => {
    let extraSeen: ToolCallExtra | undefined;
    const { client, closeServerSide } = await session(async (_request, extra) => {
      extraSeen = extra;
      await new Promise<void>((resolve) => extra.signal.onAbort(resolve));
      return { content: [] };
    });
    const call = client.callTool({ name: 'hang', arguments: {} }).catch((err: unknown) => err);
    await vi.waitFor(() => expect(extraSeen).toBeDefined());
    await closeServerSide();
    expect(extraSeen!.signal.aborted).toBe(true);
    expect(await call).toBeInstanceOf(Error);
  });

  it('a call written with the handshake waits for the initialize answer: nothing of it reaches the client first', async () => {
    const server = new Server({ name: 'hub', version: '0' }, { capabilities: { tools: { listChanged: true } } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // As search_tools does: a list_changed sent at once, before the answer.
    await server.connect(
      new ToolCallFastPath(serverSide, server, async () => {
        await server.sendToolListChanged();
        return { content: [] };
      }),
    );
    open.push(server);
    const received: string[] = [];
    clientSide.onmessage = (m) => received.push('method' in m ? m.method : `answer ${String(m.id)}`);
    await clientSide.start();
    // A client that writes its whole handshake and first call at once (printf into blitz connect).
    void clientSide.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '0' } },
    });
    void clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    void clientSide.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'sum' } } });
    await expect.poll(() => received.length).toBe(3);
    expect(received).toEqual(['answer 1', 'notifications/tools/list_changed', 'answer 2']);
  });

  it('a call held for the initialize answer and cancelled meanwhile never runs', async () => {
    const handler = vi.fn<ToolCallHandler>(async () => ({ content: [] }));
    const server = new Server({ name: 'hub', version: '0' }, { capabilities: { tools: {} } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(new ToolCallFastPath(serverSide, server, handler));
    open.push(server);
    const received: unknown[] = [];
    clientSide.onmessage = (m) => received.push(m);
    await clientSide.start();
    void clientSide.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '0' } },
    });
    void clientSide.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: {} } });
    void clientSide.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    void clientSide.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: {} } });
    await expect.poll(() => received.length).toBe(2);
    expect(received.map((m) => (m as { id: unknown }).id)).toEqual([1, 3]);
    expect(handler).toHaveBeenCalledTimes(1);
  });
});
