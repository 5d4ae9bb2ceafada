import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { LISTEN_LIVED_MS, MAX_LISTEN_REOPENS, MAX_ROUNDS, ModernServerTransport, type EraVerdict } from './modern-server-transport.js';
import { ToolParamHeaders } from './param-headers.js';

/** The server's side of the wire, scripted by the test: what was sent to it, and a way to answer. */
class ScriptedServer implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  readonly sent: JSONRPCMessage[] = [];
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
  say(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
  last(method?: string): JSONRPCRequest {
    const found = this.sent.filter((m): m is JSONRPCRequest => 'method' in m && (method === undefined || m.method === method)).at(-1);
    if (!found) throw new Error(`nothing sent${method ? ` for ${method}` : ''}`);
    return found;
  }
}

const DISCOVERED = {
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: { listChanged: true } },
  resultType: 'complete',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '1' } },
};
const INITIALIZE: JSONRPCRequest = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'blitz', version: '0' } },
};

/** A transport opened on a scripted server; what reached the client side. */
async function opened(
  discovered: Record<string, unknown> | 'refused' | 'unanswered' = DISCOVERED,
  clock?: FakeClock,
  paramHeaders?: ToolParamHeaders,
) {
  const server = new ScriptedServer();
  const verdicts: EraVerdict[] = [];
  const transport = new ModernServerTransport(server, {
    onVerdict: (v) => verdicts.push(v),
    ...(clock ? { clock, answerWithinMs: 1000 } : {}),
    ...(paramHeaders ? { paramHeaders } : {}),
  });
  const client: JSONRPCMessage[] = [];
  transport.onmessage = (m) => client.push(m);
  await transport.start();
  const opening = transport.send(INITIALIZE);
  await Promise.resolve();
  const discover = server.last('server/discover');
  if (discovered === 'refused') server.say({ jsonrpc: '2.0', id: discover.id, error: { code: -32601, message: 'Method not found' } });
  else if (discovered !== 'unanswered') server.say({ jsonrpc: '2.0', id: discover.id, result: discovered });
  return { server, transport, client, verdicts, opening };
}

const questions = (...keys: string[]) =>
  Object.fromEntries(
    keys.map((k) => [k, { method: 'elicitation/create', params: { message: `${k}?`, requestedSchema: { type: 'object' } } }]),
  );

describe('ModernServerTransport', () => {
  it('opens with server/discover carrying the client’s identity, and gives the client an initialize result made from it', async () => {
    const { server, client, verdicts, opening } = await opened();
    await opening;
    expect(server.sent[0]).toMatchObject({
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'blitz', version: '0' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
        },
      },
    });
    expect(server.sent.some((m) => 'method' in m && m.method === 'initialize')).toBe(false);
    expect(verdicts).toEqual([{ era: 'modern' }]);
    expect(client).toEqual([
      {
        jsonrpc: '2.0',
        id: 0,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: 'scripted', version: '1' },
        },
      },
    ]);
    // One listen, for the list changes the server offers.
    expect(server.last('subscriptions/listen').params).toMatchObject({ notifications: { toolsListChanged: true } });
  });

  it('a server that refuses the discovery is sent the initialize as it was, and everything after passes untouched', async () => {
    const { server, transport, verdicts, opening } = await opened('refused');
    await opening;
    expect(verdicts).toEqual([{ era: 'legacy', how: 'refused' }]);
    expect(server.last()).toEqual(INITIALIZE);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(server.last()).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  });

  it('with an answer window, a discovery unanswered in it is followed by the initialize; told silent once initialize is answered, slow if the discovery was answered first', async () => {
    for (const late of [false, true]) {
      const clock = new FakeClock();
      const { server, verdicts, opening } = await opened('unanswered', clock);
      clock.advance(999);
      expect(server.sent.map((m) => ('method' in m ? m.method : ''))).toEqual(['server/discover']);
      clock.advance(1);
      await opening;
      expect(server.last()).toEqual(INITIALIZE);
      if (late) server.say({ jsonrpc: '2.0', id: server.last('server/discover').id, result: DISCOVERED });
      expect(verdicts).toEqual([]);
      server.say({
        jsonrpc: '2.0',
        id: 0,
        result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
      });
      expect(verdicts).toEqual([{ era: 'legacy', how: late ? 'slow' : 'silent' }]);
    }
  });

  it('puts the revision’s _meta on each request beside the request’s own, and the log level once set', async () => {
    const { server, transport, client, opening } = await opened();
    await opening;
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'debug' } });
    await Promise.resolve();
    expect(client.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await transport.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'x', arguments: {}, _meta: { progressToken: 7 } },
    });
    expect(server.last().params?._meta).toEqual({
      progressToken: 7,
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'blitz', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      'io.modelcontextprotocol/logLevel': 'debug',
    });
  });

  it('runs rounds of questions: each asked of the client under its key, the request retried with the answers and the state, the last result stripped of the revision’s fields', async () => {
    const { server, transport, client, opening } = await opened();
    await opening;
    await transport.send(
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask', arguments: {} } },
      { relatedRequestId: 'call-1' },
    );
    server.say({ jsonrpc: '2.0', id: 5, result: { resultType: 'input_required', inputRequests: questions('a', 'b'), requestState: 'S1' } });
    const asked = client.filter((m): m is JSONRPCRequest => 'method' in m && m.method === 'elicitation/create');
    expect(asked.map((q) => q.params?._meta)).toEqual([{ 'blitz/inputKey': 'a' }, { 'blitz/inputKey': 'b' }]);
    expect(transport.relatedTo(asked[0]!.id)).toBe('call-1');
    await transport.send({ jsonrpc: '2.0', id: asked[1]!.id, result: { action: 'accept', content: { v: 'B' } } });
    // Not retried until every question of the round is answered.
    expect(server.last().params).not.toHaveProperty('inputResponses');
    await transport.send({ jsonrpc: '2.0', id: asked[0]!.id, result: { action: 'decline' } });
    expect(server.last()).toMatchObject({
      id: 5,
      method: 'tools/call',
      params: {
        name: 'ask',
        inputResponses: { a: { action: 'decline' }, b: { action: 'accept', content: { v: 'B' } } },
        requestState: 'S1',
      },
    });
    server.say({
      jsonrpc: '2.0',
      id: 5,
      result: { content: [], resultType: 'complete', ttlMs: 0, _meta: { 'io.modelcontextprotocol/serverInfo': {} } },
    });
    expect(client.at(-1)).toEqual({ jsonrpc: '2.0', id: 5, result: { content: [] } });
  });

  it('a question the client fails fails the request, and its other open questions are withdrawn', async () => {
    const { server, transport, client, opening } = await opened();
    await opening;
    await transport.send({ jsonrpc: '2.0', id: 6, method: 'prompts/get', params: { name: 'p' } });
    server.say({ jsonrpc: '2.0', id: 6, result: { resultType: 'input_required', inputRequests: questions('a', 'b') } });
    const [a, b] = client.filter((m): m is JSONRPCRequest => 'method' in m && m.method === 'elicitation/create');
    await transport.send({ jsonrpc: '2.0', id: a!.id, error: { code: -32601, message: 'no elicitation here' } });
    expect(client.slice(-2)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: b!.id, reason: 'the request ended' } },
      { jsonrpc: '2.0', id: 6, error: { code: -32601, message: 'no elicitation here' } },
    ]);
  });

  it('a request the client cancels while its questions are open withdraws them, and tells the server', async () => {
    const { server, transport, client, opening } = await opened();
    await opening;
    await transport.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ask' } });
    server.say({ jsonrpc: '2.0', id: 7, result: { resultType: 'input_required', inputRequests: questions('a') } });
    const [a] = client.filter((m): m is JSONRPCRequest => 'method' in m && m.method === 'elicitation/create');
    await transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    expect(client.at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: a!.id, reason: 'the request ended' },
    });
    expect(server.last()).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    // A late answer goes nowhere.
    const sent = server.sent.length;
    await transport.send({ jsonrpc: '2.0', id: a!.id, result: { action: 'accept', content: {} } });
    expect(server.sent).toHaveLength(sent);
  });

  it(`fails a request whose server asks more than ${MAX_ROUNDS} rounds, or asks nothing`, async () => {
    const { server, transport, client, opening } = await opened();
    await opening;
    await transport.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'nag' } });
    for (let round = 0; round <= MAX_ROUNDS; round++) {
      server.say({ jsonrpc: '2.0', id: 8, result: { resultType: 'input_required', inputRequests: questions('again') } });
      const question = client.at(-1) as JSONRPCRequest;
      if (!('method' in question) || question.method !== 'elicitation/create') break;
      await transport.send({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: {} } });
    }
    expect(client.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32603, message: `the server asked more than ${MAX_ROUNDS} rounds of questions for one tools/call` },
    });
    await transport.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'mute' } });
    server.say({ jsonrpc: '2.0', id: 9, result: { resultType: 'input_required', inputRequests: {} } });
    expect(client.at(-1)).toMatchObject({ id: 9, error: { message: 'the server answered tools/call input_required without questions' } });
  });

  it('subscriptions ride on one listen: a subscribe opens a new one with the resource, then ends the last; a replaced listen’s notices are dropped', async () => {
    const { server, transport, client, opening } = await opened();
    await opening;
    const first = server.last('subscriptions/listen');
    await transport.send({ jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: 'r://1' } });
    const second = server.last('subscriptions/listen');
    expect(second.params).toMatchObject({ notifications: { toolsListChanged: true, resourceSubscriptions: ['r://1'] } });
    expect(server.last()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: first.id, reason: 'replaced' },
    });
    await Promise.resolve();
    expect(client.at(-1)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    const tagged = (id: unknown, uri: string): JSONRPCMessage => ({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri, _meta: { 'io.modelcontextprotocol/subscriptionId': id } },
    });
    server.say(tagged(first.id, 'r://stale'));
    server.say(tagged(second.id, 'r://1'));
    expect(client.at(-1)).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'r://1' } });
    expect(client.some((m) => JSON.stringify(m).includes('r://stale'))).toBe(false);
  });

  it('opens a listen the server ended again, until it ends one MAX_LISTEN_REOPENS times with nothing heard; one it refuses is reported', async () => {
    const { server, transport, client, opening } = await opened();
    const errors: string[] = [];
    transport.onerror = (e) => errors.push(e.message);
    await opening;
    const listens = () => server.sent.filter((m) => 'method' in m && m.method === 'subscriptions/listen') as JSONRPCRequest[];
    const end = async (listen: JSONRPCRequest) => {
      server.say({ jsonrpc: '2.0', id: listen.id, result: { resultType: 'complete' } });
      await Promise.resolve();
    };
    await end(listens()[0]!);
    expect(listens()).toHaveLength(2);
    // A notice heard on the new one: the count starts again.
    const changed = {
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': listens()[1]!.id } },
    };
    server.say(changed as JSONRPCMessage);
    expect(client.at(-1)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} });
    for (let i = 0; i < MAX_LISTEN_REOPENS; i++) await end(listens().at(-1)!);
    expect(listens()).toHaveLength(2 + MAX_LISTEN_REOPENS);
    expect(errors).toEqual([]);
    await end(listens().at(-1)!);
    expect(listens()).toHaveLength(2 + MAX_LISTEN_REOPENS);
    expect(errors).toEqual([`the server ended its subscriptions/listen ${MAX_LISTEN_REOPENS} times in a row; its changes are not heard`]);

    // A subscribe opens one again; the server refusing it is said once, and not retried.
    await transport.send({ jsonrpc: '2.0', id: 5, method: 'resources/subscribe', params: { uri: 'r://1' } });
    const refused = listens().at(-1)!;
    server.say({ jsonrpc: '2.0', id: refused.id, error: { code: -32603, message: 'no listens here' } });
    await Promise.resolve();
    expect(listens().at(-1)).toBe(refused);
    expect(errors.at(-1)).toBe('the server refused its subscriptions/listen: no listens here; its changes are not heard');
  });

  it('opens a listen again when its HTTP stream ends without its answer, takes the late answer, and counts only short-lived ones', async () => {
    const clock = new FakeClock();
    const { server, transport, client, opening } = await opened(DISCOVERED, clock);
    const errors: string[] = [];
    transport.onerror = (e) => errors.push(e.message);
    await opening;
    const listens = () => server.sent.filter((m) => 'method' in m && m.method === 'subscriptions/listen') as JSONRPCRequest[];
    const first = listens()[0]!;
    const seen = client.length;
    transport.streamEnded(first.id);
    await Promise.resolve();
    expect(listens()).toHaveLength(2);
    // The dropped listen's answer, if it comes after all, is nobody's: the client never hears it.
    server.say({ jsonrpc: '2.0', id: first.id, result: { resultType: 'complete' } });
    expect(client).toHaveLength(seen);
    expect(listens()).toHaveLength(2);
    // The end of another stream (a call's) is not the listen's.
    transport.streamEnded('a call');
    expect(listens()).toHaveLength(2);
    // Each one cut after it lived LISTEN_LIVED_MS is opened again, however often.
    for (let i = 0; i < MAX_LISTEN_REOPENS + 2; i++) {
      clock.advance(LISTEN_LIVED_MS);
      transport.streamEnded(listens().at(-1)!.id);
      await Promise.resolve();
    }
    expect(listens()).toHaveLength(4 + MAX_LISTEN_REOPENS);
    expect(errors).toEqual([]);
    // Cut at once, again and again: a server that will not keep one.
    for (let i = 0; i <= MAX_LISTEN_REOPENS; i++) {
      transport.streamEnded(listens().at(-1)!.id);
      await Promise.resolve();
    }
    expect(errors).toEqual([`the server ended its subscriptions/listen ${MAX_LISTEN_REOPENS} times in a row; its changes are not heard`]);
  });

  it('tells the server the link’s capabilities less what the calling client lacks, and nothing of its own key', async () => {
    const { server, transport, opening } = await opened();
    await opening;
    const sentCapabilities = async (id: number, meta: Record<string, unknown> | undefined) => {
      await transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask', ...(meta ? { _meta: meta } : {}) } });
      const sent = server.last('tools/call').params!._meta!;
      expect(sent).not.toHaveProperty(['blitz/callerCapabilities']);
      return sent['io.modelcontextprotocol/clientCapabilities'];
    };
    expect(await sentCapabilities(1, undefined)).toEqual({ elicitation: {} });
    expect(await sentCapabilities(2, { 'blitz/callerCapabilities': { elicitation: { form: {} } } })).toEqual({ elicitation: {} });
    expect(await sentCapabilities(3, { 'blitz/callerCapabilities': {}, progressToken: 7 })).toEqual({});
    expect(server.last('tools/call').params!._meta!.progressToken).toBe(7);
  });

  it('tells the server the calling client follows tasks only when it does, and passes a task on whole', async () => {
    const { server, transport, client, opening } = await opened();
    await opening;
    const follows = { 'blitz/callerCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
    await transport.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'sum', _meta: follows } });
    expect(server.last('tools/call').params!._meta!['io.modelcontextprotocol/clientCapabilities']).toEqual({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    const made = { resultType: 'task', taskId: 't1', status: 'working', ttlMs: 60_000 };
    server.say({ jsonrpc: '2.0', id: 8, result: made });
    expect(client.at(-1)).toEqual({ jsonrpc: '2.0', id: 8, result: made });
    await transport.send({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'sum', _meta: { 'blitz/callerCapabilities': {} } },
    });
    expect(server.last('tools/call').params!._meta!['io.modelcontextprotocol/clientCapabilities']).toEqual({});
  });

  it('learns each listing’s parameter headers, and leaves out a tool whose annotations the revision forbids, saying why', async () => {
    const headers = new ToolParamHeaders();
    const { server, transport, client, opening } = await opened(DISCOVERED, undefined, headers);
    const errors: string[] = [];
    transport.onerror = (e) => errors.push(e.message);
    await opening;
    await transport.send({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: {} });
    const region = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } };
    const count = { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } };
    server.say({
      jsonrpc: '2.0',
      id: 6,
      result: {
        resultType: 'complete',
        tools: [
          { name: 'regional', inputSchema: region },
          { name: 'counted', inputSchema: count },
        ],
      },
    });
    expect(client.at(-1)).toEqual({ jsonrpc: '2.0', id: 6, result: { tools: [{ name: 'regional', inputSchema: region }] } });
    expect(headers.of('regional')).toEqual([{ path: ['region'], header: 'Mcp-Param-Region' }]);
    expect(errors).toEqual([
      'the server\'s tool counted is left out: n: x-mcp-header is allowed only on a string, integer or boolean, not "number"',
    ]);
  });

  it('answers ping with a discovery, the revision having no ping', async () => {
    const { server, transport, client, opening } = await opened();
    await opening;
    const ping = transport.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    await Promise.resolve();
    const discover = server.last('server/discover');
    expect(discover.id).not.toBe((server.sent[0] as JSONRPCRequest).id);
    server.say({ jsonrpc: '2.0', id: discover.id, result: DISCOVERED });
    await ping;
    await Promise.resolve();
    expect(client.at(-1)).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
  });
});
