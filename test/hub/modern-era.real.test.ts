import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { REAL_WAIT } from '../../packages/core/src/testing/real-wait.js';
import { tempDir } from '../support/blitz-cli.js';
import { connectLines } from '../support/connect-lines.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

// Issue 28 point 1: the daemon's /mcp serves MCP 2026-07-28 (stateless, per-request _meta,
// server/discover) beside the 2025 sessions, on the same endpoint at the same time. A real
// daemon, the conformance fixture server over stdio, real HTTP on 127.0.0.1.
let home: string;
let workspace: string;
let daemon: RunningDaemon;

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'modern-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Answer {
  status: number;
  contentType: string;
  /** Every JSON-RPC message of the answer: one for JSON, each event's for SSE. */
  messages: Array<{
    id?: unknown;
    method?: string;
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  }>;
}

beforeAll(async () => {
  home = tempDir('blitz-modern-');
  workspace = tempDir('blitz-modern-ws-');
  const { command, args } = fixtureCommand('conformance');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "fx"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\n`,
  );
  daemon = await startDaemonProcess(home);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of [home, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

/** A modern POST: the standard headers mirrored from the body unless `headers` says otherwise (null drops one). */
async function post(
  method: string,
  params: Record<string, unknown> | undefined,
  headers: Record<string, string | null> = {},
  id: unknown = 1,
): Promise<Answer> {
  const name = method === 'tools/call' || method === 'prompts/get' ? params?.name : method === 'resources/read' ? params?.uri : undefined;
  const all: Record<string, string | null> = {
    authorization: `Bearer ${daemon.state.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    ...headers,
  };
  const response = await fetch(`http://127.0.0.1:${daemon.state.port}/mcp?workspace=${encodeURIComponent(workspace)}`, {
    method: 'POST',
    headers: Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== null)),
    body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }),
  });
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  const messages = contentType.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)))
    : [JSON.parse(text)];
  return { status: response.status, contentType, messages };
}

const only = (answer: Answer) => answer.messages.at(-1)!;

describe('/mcp at 2026-07-28', () => {
  it('answers server/discover with both eras, the hub as server, its capabilities and caching hints', async () => {
    const answer = await post('server/discover', { _meta: META });
    expect(answer.status).toBe(200);
    expect(only(answer)).toMatchObject({
      id: 1,
      result: {
        resultType: 'complete',
        supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25', '2025-06-18']),
        capabilities: { tools: expect.any(Object), prompts: expect.any(Object), resources: expect.any(Object) },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'blitz', version: expect.any(String) } },
        ttlMs: 0,
        cacheScope: 'private',
      },
    });
    // resources/subscribe is not part of the revision: discover does not offer it.
    expect((only(answer).result!.capabilities as { resources: object }).resources).not.toHaveProperty('subscribe');
  });

  it('lists tools without a session, in name order, with caching hints, and calls one', async () => {
    const listed = only(await post('tools/list', { _meta: META }));
    const names = (listed.result!.tools as Array<{ name: string }>).map((t) => t.name);
    expect(names).toContain('test_simple_text');
    expect(names).toEqual([...names].sort());
    expect(listed.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });

    const called = await post('tools/call', { name: 'test_simple_text', arguments: {}, _meta: META }, {}, 'call-1');
    expect(called.status).toBe(200);
    expect(only(called)).toMatchObject({ id: 'call-1', result: { resultType: 'complete' } });
    expect(textOf(only(called).result)).toBe('This is a simple text response for testing.');
  });

  it('sends progress before the answer on SSE, and a log message only to a request that set a log level', async () => {
    const progress = await post('tools/call', { name: 'test_tool_with_progress', arguments: {}, _meta: { ...META, progressToken: 'p' } });
    expect(progress.contentType).toContain('text/event-stream');
    expect(progress.messages.some((m) => m.method === 'notifications/progress')).toBe(true);
    expect(only(progress)).toMatchObject({ id: 1, result: { resultType: 'complete' } });

    const quiet = await post('tools/call', { name: 'test_tool_with_logging', arguments: {}, _meta: META });
    expect(quiet.messages.filter((m) => m.method === 'notifications/message')).toEqual([]);
    expect(only(quiet).result).toBeDefined();
    const logged = await post('tools/call', {
      name: 'test_tool_with_logging',
      arguments: {},
      _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'info' },
    });
    expect(logged.messages.filter((m) => m.method === 'notifications/message').length).toBeGreaterThan(0);
  });

  it('refuses a request without the _meta the revision requires with 400 -32602, echoing its id', async () => {
    for (const meta of [
      undefined,
      { 'io.modelcontextprotocol/clientCapabilities': {} },
      { 'io.modelcontextprotocol/protocolVersion': VERSION },
    ]) {
      const answer = await post('server/discover', meta === undefined ? {} : { _meta: meta }, {}, 101);
      expect(answer.status).toBe(400);
      expect(only(answer)).toMatchObject({ id: 101, error: { code: -32602 } });
    }
  });

  it('refuses a revision it does not speak with 400 -32022, naming the ones it does', async () => {
    const answer = await post(
      'server/discover',
      { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } },
      { 'mcp-protocol-version': '1900-01-01' },
      301,
    );
    expect(answer.status).toBe(400);
    expect(only(answer)).toMatchObject({
      id: 301,
      error: { code: -32022, data: { requested: '1900-01-01', supported: expect.arrayContaining([VERSION]) } },
    });
  });

  it('answers removed and unknown methods with 404 -32601', async () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'unknown/method']) {
      const answer = await post(method, { _meta: META }, {}, 500);
      expect({ method, status: answer.status }).toEqual({ method, status: 404 });
      expect(only(answer)).toMatchObject({ id: 500, error: { code: -32601 } });
    }
  });

  it('checks the mirrored headers against the body: 400 -32020 when one is missing or differs; a base64 name is decoded', async () => {
    const call = { name: 'test_simple_text', arguments: {}, _meta: META };
    const cases: Array<Record<string, string | null>> = [
      { 'mcp-name': 'test_error_handling' },
      { 'mcp-name': null },
      { 'mcp-method': 'tools/list' },
      { 'mcp-method': null },
      { 'mcp-protocol-version': '2025-11-25' },
      { 'mcp-protocol-version': null },
    ];
    for (const headers of cases) {
      const answer = await post('tools/call', call, headers, 7);
      expect({ headers, status: answer.status }).toEqual({ headers, status: 400 });
      expect(only(answer)).toMatchObject({ id: 7, error: { code: -32020 } });
    }
    const encoded = `=?base64?${Buffer.from('test_simple_text').toString('base64')}?=`;
    expect(only(await post('tools/call', call, { 'mcp-name': encoded }))).toMatchObject({ result: { resultType: 'complete' } });
  });

  it("declines a server's elicitation for a client that declared none, as for a 2025 client that cannot be asked", async () => {
    // Sampling the client lacks fails -32021 instead (test/conformance/modern-hub.test.ts, server-stateless's checks).
    const answer = await post('tools/call', { name: 'test_elicitation', arguments: { message: 'Who are you?' }, _meta: META }, {}, 401);
    expect(answer.status).toBe(200);
    expect(only(answer)).toMatchObject({ id: 401, result: { resultType: 'complete' } });
    expect(textOf(only(answer).result)).toBe('User response: action=decline, content={}');
  });

  it('answers a read of a resource no server has with -32602 and its URI', async () => {
    const uri = 'test://no-such-resource';
    expect(only(await post('resources/read', { uri, _meta: META }, {}, 9))).toMatchObject({
      id: 9,
      error: { code: -32602, data: { uri } },
    });
  });

  it('serves a 2025-11-25 session on the same endpoint at the same time, as before', async () => {
    const legacy = await connectHub(daemon.state, { workspace });
    try {
      expect(legacy.getServerVersion()?.name).toBe('blitz');
      const [legacyCall, modernCall] = await Promise.all([
        legacy.callTool({ name: 'test_simple_text', arguments: {} }),
        post('tools/call', { name: 'test_simple_text', arguments: {}, _meta: META }),
      ]);
      expect(textOf(legacyCall)).toBe('This is a simple text response for testing.');
      expect(textOf(only(modernCall).result)).toBe('This is a simple text response for testing.');
      // The legacy session keeps what only it has: ping, its own level, and a result without the revision's fields.
      await legacy.ping();
      await legacy.setLoggingLevel('info');
      const tools = await legacy.listTools();
      expect(tools).not.toHaveProperty('ttlMs');
      expect(tools.tools.some((t) => t.name === 'test_simple_text')).toBe(true);
    } finally {
      await legacy.close();
    }
  });
});

describe('subscriptions/listen at 2026-07-28', () => {
  it('acknowledges first, then tells of a tool list change, tagged with its id, and of nothing it did not ask for', async () => {
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${daemon.state.port}/mcp?workspace=${encodeURIComponent(workspace)}`, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        authorization: `Bearer ${daemon.state.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'sub-1',
        method: 'subscriptions/listen',
        params: { _meta: META, notifications: { toolsListChanged: true } },
      }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const frames: Array<{ method?: string; params?: { _meta?: Record<string, unknown>; notifications?: unknown } }> = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let rest = '';
      try {
        for await (const chunk of response.body!) {
          const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n');
          rest = lines.pop()!;
          for (const line of lines) if (line.startsWith('data: ')) frames.push(JSON.parse(line.slice(6)));
        }
      } catch {
        // aborted below
      }
    })();
    try {
      await expect.poll(() => frames.length, REAL_WAIT).toBeGreaterThan(0);
      expect(frames[0]).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' }, notifications: { toolsListChanged: true } },
      });
      // Switching the server off changes the agent's tools (and its prompts and resources, which this stream did not ask for).
      await daemon.client.setServerEnabled('fx', false);
      await expect.poll(() => frames.some((f) => f.method === 'notifications/tools/list_changed'), REAL_WAIT).toBe(true);
      expect(frames.find((f) => f.method === 'notifications/tools/list_changed')!.params!._meta).toEqual({
        'io.modelcontextprotocol/subscriptionId': 'sub-1',
      });
      expect(frames.filter((f) => f.method !== 'notifications/tools/list_changed' && f !== frames[0])).toEqual([]);
    } finally {
      controller.abort();
      await reading;
      await daemon.client.setServerEnabled('fx', true);
    }
  });
});

describe('blitz connect at 2026-07-28', () => {
  it('serves a client that opens with server/discover: stateless requests by their _meta, the errors the revision names', async () => {
    const lines = connectLines(home, workspace);
    const { received, answerTo } = lines;
    const send = (id: unknown, method: string, params?: Record<string, unknown>) => lines.request(id, method, params);
    try {
      send('d', 'server/discover', { _meta: META });
      expect(await answerTo('d')).toMatchObject({
        result: {
          resultType: 'complete',
          supportedVersions: expect.arrayContaining([VERSION, '2025-11-25']),
          ttlMs: 0,
          cacheScope: 'private',
        },
      });
      send('l', 'tools/list', { _meta: META });
      const names = ((await answerTo('l')).result!.tools as Array<{ name: string }>).map((t) => t.name);
      expect(names).toContain('test_simple_text');
      expect(names).toEqual([...names].sort());
      send('c', 'tools/call', { name: 'test_simple_text', arguments: {}, _meta: META });
      expect(textOf((await answerTo('c')).result)).toBe('This is a simple text response for testing.');
      expect((await answerTo('c')).result).toMatchObject({ resultType: 'complete' });
      send('m', 'tools/list', {});
      expect(await answerTo('m')).toMatchObject({ error: { code: -32602 } });
      send('v', 'tools/list', { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } });
      expect(await answerTo('v')).toMatchObject({ error: { code: -32022, data: { requested: '1900-01-01' } } });
      send('p', 'ping', { _meta: META });
      expect(await answerTo('p')).toMatchObject({ error: { code: -32601 } });
      // Progress is the request's own; a log message only when the request set a level.
      send('g', 'tools/call', { name: 'test_tool_with_logging', arguments: {}, _meta: META });
      await answerTo('g');
      expect(received.filter((m) => m.method === 'notifications/message')).toEqual([]);
    } finally {
      await lines.close();
    }
  });
});
