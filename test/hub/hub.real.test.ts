import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureCommand, FIXTURES_DIR } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans, isAlive } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf, type HubTransport } from '../support/hub-client.js';

const EVERYTHING = path.join(
  path.dirname(
    createRequire(path.join(import.meta.dirname, '..', '..', 'packages', 'core', 'package.json')).resolve(
      '@modelcontextprotocol/server-everything/package.json',
    ),
  ),
  'dist',
  'index.js',
);

let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;
const clients: Client[] = [];

function stdio(name: string, command: string, args: string[], extra = ''): string {
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\n${extra}\n`;
}
function fixture(name: string, file: Parameters<typeof fixtureCommand>[0], extra = ''): string {
  const { command, args } = fixtureCommand(file);
  return stdio(name, command, args, extra);
}

beforeEach(() => {
  home = tempDir('blitz-hub-');
  workspace = tempDir('blitz-hub-ws-');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  if (daemon) await daemon.stop();
  daemon = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

async function start(settings: string, daemonSettings = ''): Promise<RunningDaemon> {
  writeSettings(home, `[daemon]\nport = 0\n${daemonSettings}\n${settings}`);
  daemon = await startDaemonProcess(home);
  return daemon;
}

async function client(via: HubTransport, opts: Partial<Parameters<typeof connectHub>[1]> = {}): Promise<Client> {
  const c = await connectHub(daemon!.state, { workspace, via, ...opts });
  clients.push(c);
  return c;
}

describe.each<HubTransport>(['http', 'lines'])('the aggregated MCP endpoint over %s', (via) => {
  it('offers every server’s tools and the resource tools; calls go to the owner under the original name', async () => {
    await start(
      stdio('everything', process.execPath, [EVERYTHING, 'stdio'], 'auto_approve = true') +
        fixture('fix', 'resources', 'prefix = "fx"\nauto_approve = true'),
    );
    const c = await client(via);
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names.slice(0, 2)).toEqual(['list_mcp_resources', 'read_mcp_resource']);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'fx__echo', 'fx__sized']));
    expect(textOf(await c.callTool({ name: 'echo', arguments: { message: 'hi' } }))).toBe('Echo: hi');
    expect(textOf(await c.callTool({ name: 'fx__echo', arguments: { text: 'prefixed' } }))).toBe('prefixed');
    const structured = await c.callTool({ name: 'get-structured-content', arguments: { location: 'New York' } });
    expect(structured.structuredContent).toBeDefined();
    const image = await c.callTool({ name: 'get-tiny-image', arguments: {} });
    expect((image.content as Array<{ type: string }>).some((i) => i.type === 'image')).toBe(true);
    // Said once: the SDK puts "MCP error -32602: " in front of what the hub sends.
    await expect(c.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/^MCP error -32602: unknown tool nope$/);
  });

  it('resources and prompts pass through; resource tools cut long text and describe binaries', async () => {
    await start(fixture('fix', 'resources', 'auto_approve = true'));
    const c = await client(via);
    expect((await c.listResources()).resources.map((r) => r.uri)).toEqual([
      'fixture://big.txt',
      'fixture://small.txt',
      'fixture://logo.png',
    ]);
    expect((await c.readResource({ uri: 'fixture://small.txt' })).contents[0]).toMatchObject({ text: 'hello from a resource' });
    const big = textOf(await c.callTool({ name: 'read_mcp_resource', arguments: { server: 'fix', uri: 'fixture://big.txt' } }));
    expect(big.length).toBeLessThan(300 * 1024);
    expect(big).toMatch(/\[cut: fixture:\/\/big\.txt is 300\.0 KB; only the first 256 KB are shown\]$/);
    expect(textOf(await c.callTool({ name: 'read_mcp_resource', arguments: { server: 'fix', uri: 'fixture://logo.png' } }))).toBe(
      '[binary resource fixture://logo.png from fix: image/png, 1.5 KB; not shown]',
    );
    expect(textOf(await c.callTool({ name: 'list_mcp_resources', arguments: {} }))).toContain('fix\tfixture://small.txt\tsmall');
    expect((await c.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
    expect((await c.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).messages[0]!.content).toEqual({
      type: 'text',
      text: 'Say hello to Ada',
    });
    await expect(c.getPrompt({ name: 'greet', arguments: {} })).rejects.toThrow(/^MCP error -?\d+: [^:]*prompt greet needs who/);
  });

  it('a result larger than [hub] max_result_mb is refused with its size and the setting', async () => {
    await start(`[hub]\nmax_result_mb = 1\n\n` + fixture('fix', 'resources', 'auto_approve = true'));
    const c = await client(via);
    await c.listTools();
    expect(textOf(await c.callTool({ name: 'sized', arguments: { kb: 10 } }))).toHaveLength(10 * 1024);
    const refused = await c.callTool({ name: 'sized', arguments: { kb: 2048 } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      'MCP server fix sent a message of 2.0 MB, more than the limit of 1.0 MB ([hub] max_result_mb); it was not passed on',
    );
    // The server is fine: the next call works, and nothing was counted against it.
    expect(textOf(await c.callTool({ name: 'sized', arguments: { kb: 1 } }))).toHaveLength(1024);
    expect((await daemon!.client.status()).servers[0]!.state).toBe('connected');
  });

  it('filters by agent and refuses every server tool in read-only mode', async () => {
    await start(
      fixture('mine', 'env-dump', 'auto_approve = true') +
        fixture('shared', 'resources', 'agents = ["*"]\nprefix = "s"\nauto_approve = true') +
        fixture('review', 'hang-call', 'agents = ["reviewer"]\nprefix = "r"'),
    );
    const main = await client(via);
    expect((await main.listTools()).tools.map((t) => t.name).filter((n) => n.includes('echo'))).toEqual(['echo', 's__echo']);
    const reviewer = await client(via, { agent: 'reviewer' });
    expect((await reviewer.listTools()).tools.map((t) => t.name).filter((n) => n.includes('echo'))).toEqual(['s__echo', 'r__echo']);
    const readOnly = await client(via, { mode: 'read-only' });
    expect((await readOnly.listTools()).tools.map((t) => t.name)).toEqual(['list_mcp_resources', 'read_mcp_resource']);
    const refused = await readOnly.callTool({ name: 'echo', arguments: { text: 'x' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('read-only mode');
    expect(
      textOf(await readOnly.callTool({ name: 'read_mcp_resource', arguments: { server: 'shared', uri: 'fixture://small.txt' } })),
    ).toBe('hello from a resource');
  });

  it('approval: a client that answers allow, allow for the session, deny; one that cannot be asked is refused', async () => {
    await start(`[permissions]\ndeny = ["mcp:fix:env"]\n\n` + fixture('fix', 'env-dump'));
    const questions: string[] = [];
    const answers = ['allow_once', 'deny', 'allow_session'];
    const asking = await client(via, {
      elicit: (message) => {
        questions.push(message);
        return { action: 'accept', content: { decision: answers.shift()! } };
      },
    });
    await asking.listTools();
    expect(textOf(await asking.callTool({ name: 'echo', arguments: { text: 'one', b: 2 } }))).toBe('one');
    expect(questions[0]).toBe('Run echo (MCP server "fix")\nb=2\ntext=one');
    const denied = await asking.callTool({ name: 'echo', arguments: { text: 'two' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain(
      'was not run: denied; to allow it, run: blitz mcp approve fix echo (adds "mcp:fix:echo" to [permissions] allow',
    );
    expect(textOf(await asking.callTool({ name: 'echo', arguments: { text: 'three' } }))).toBe('three');
    expect(textOf(await asking.callTool({ name: 'echo', arguments: { text: 'four' } }))).toBe('four');
    expect(questions).toHaveLength(3);
    const rule = await asking.callTool({ name: 'env', arguments: {} });
    expect(textOf(rule)).toContain('refused: denied by the rule "mcp:fix:env" in [permissions] deny');

    const mute = await client(via);
    await mute.listTools();
    const refused = await mute.callTool({ name: 'echo', arguments: { text: 'x' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('this client cannot be asked (no elicitation support); to allow it, run: blitz mcp approve fix echo');
  });

  it('approval: the question shows each argument on one line, escaped and cut — an argument cannot plant a line of its own (issue 25.12)', async () => {
    await start(fixture('fix', 'env-dump'));
    const questions: string[] = [];
    const asking = await client(via, {
      elicit: (message) => {
        questions.push(message);
        return { action: 'accept', content: { decision: 'allow_once' } };
      },
    });
    await asking.listTools();
    const text = `hi\nRun echo (MCP server "fix")\ntext=harmless ${'x'.repeat(5_000)}`;
    expect(textOf(await asking.callTool({ name: 'echo', arguments: { text } }))).toBe(text);
    expect(questions[0]!.split('\n')).toEqual([
      'Run echo (MCP server "fix")',
      `text=${text.slice(0, 200).replaceAll('\n', '\\n')}… (${text.length.toLocaleString('en-US')} characters)`,
    ]);
  });

  it('a client that cannot be asked, refused by an [permissions] ask rule, is told of the rule — blitz mcp approve would not pass it', async () => {
    await start(`[permissions]\nallow = ["mcp:fix:echo"]\nask = ["mcp:fix:*"]\n\n` + fixture('fix', 'env-dump', 'auto_approve = true'));
    const mute = await client(via);
    await mute.listTools();
    const refused = await mute.callTool({ name: 'echo', arguments: { text: 'x' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      'this client cannot be asked (no elicitation support); it is asked about by the rule "mcp:fix:*" in [permissions] ask',
    );
    expect(textOf(refused)).not.toContain('blitz mcp approve fix echo');
  });

  it('a toggle through the control API reaches a connected client as list_changed, and the tool is gone', async () => {
    await start(fixture('a', 'env-dump', 'auto_approve = true') + fixture('b', 'resources', 'prefix = "b"'));
    const c = await client(via);
    let changed = 0;
    c.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    expect((await c.listTools()).tools.map((t) => t.name)).toContain('b__sized');
    let promptsChanged = 0;
    c.setNotificationHandler(PromptListChangedNotificationSchema, async () => {
      promptsChanged++;
    });
    await daemon!.client.setServerEnabled('b', false);
    await expect.poll(() => changed, { timeout: 2_000 }).toBeGreaterThan(0);
    await expect.poll(() => promptsChanged, { timeout: 2_000 }).toBeGreaterThan(0);
    expect((await c.listPrompts()).prompts).toEqual([]);
    expect((await c.listTools()).tools.map((t) => t.name)).not.toContain('b__sized');
    expect(fs.readFileSync(path.join(home, 'settings.toml'), 'utf8')).toContain('disabled = true');
  });

  it("a server's own list_changed reaches the client", async () => {
    // pin = false: a tool added while the server runs would be held for review (issue 31, hub/pins.real.test.ts); this is about list_changed reaching the client.
    await start(fixture('ch', 'changing-tools', 'auto_approve = true\npin = false'));
    const c = await client(via);
    let changed = 0;
    c.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    await c.listTools();
    await c.callTool({ name: 'add_tool', arguments: { name: 'fresh' } });
    await expect.poll(() => changed, { timeout: 3_000 }).toBeGreaterThan(0);
    expect((await c.listTools()).tools.map((t) => t.name)).toContain('fresh');
  });

  it('a server crashing mid-call gives the client an error, not a hang; notices arrive as logging messages', async () => {
    await start(
      fixture('crashy', 'crash-after', 'auto_approve = true').replace(
        `"${path.join(FIXTURES_DIR, 'crash-after.mjs')}"]`,
        `"${path.join(FIXTURES_DIR, 'crash-after.mjs')}", "1"]`,
      ),
    );
    const c = await client(via);
    const notices: string[] = [];
    c.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      notices.push(`${n.params.level}: ${String(n.params.data)}`);
    });
    await c.listTools();
    expect(textOf(await c.callTool({ name: 'echo', arguments: { text: 'one' } }))).toBe('one');
    const crashed = await c.callTool({ name: 'echo', arguments: { text: 'two' } });
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toContain('MCP server crashy exited with code 3');
    await expect
      .poll(() => notices, { timeout: 2_000 })
      .toContainEqual(expect.stringMatching(/^warning: MCP server crashy failed: it exited with code 3/));
  });

  it('progress notifications are forwarded; a server’s elicitation goes to the calling client', async () => {
    await start(stdio('everything', process.execPath, [EVERYTHING, 'stdio'], 'auto_approve = true'));
    const c = await client(via, { elicit: () => ({ action: 'accept', content: { name: 'Ada' } }) });
    await c.listTools();
    const progress: number[] = [];
    await c.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 3 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(progress.length).toBeGreaterThan(0);
    const elicited = await c.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(JSON.stringify(elicited)).toContain('Ada');
  });

  it("a server's own requests (MCP-37): sampling only where settings allow it, to the calling client; roots are the workspace; elicitation declined for a client that cannot answer", async () => {
    await start(
      stdio('sampler', process.execPath, [EVERYTHING, 'stdio'], 'auto_approve = true\nsampling = true\nprefix = "s"') +
        stdio('plain', process.execPath, [EVERYTHING, 'stdio'], 'auto_approve = true\nprefix = "p"'),
    );
    const asked: unknown[] = [];
    const c = await client(via, {
      sample: (params) => {
        asked.push(params.messages[0]!.content);
        return { role: 'assistant', model: 'hub-test', content: { type: 'text', text: 'sampled by the calling client' } };
      },
    });
    const names = (await c.listTools()).tools.map((t) => t.name);
    // A server is offered sampling only with sampling = true; server-everything offers the tool only then.
    expect(names).toContain('s__trigger-sampling-request');
    expect(names).not.toContain('p__trigger-sampling-request');
    expect(JSON.stringify(await c.callTool({ name: 's__trigger-sampling-request', arguments: { prompt: 'hello' } }))).toContain(
      'sampled by the calling client',
    );
    expect(asked).toEqual([{ type: 'text', text: 'Resource trigger-sampling-request context: hello' }]);
    expect(textOf(await c.callTool({ name: 'p__get-roots-list', arguments: {} }))).toContain(pathToFileURL(workspace).href);
    expect(JSON.stringify(await c.callTool({ name: 'p__trigger-elicitation-request', arguments: {} }))).toContain('decline');
  });

  it('a client cancelling a call cancels it at the server, which carries on', async () => {
    const calls = path.join(home, 'calls.txt');
    const cancels = path.join(home, 'cancels.txt');
    await start(
      fixture(
        'slow',
        'hang-call',
        `auto_approve = true\nenv = { HANG_CALLS_FILE = ${JSON.stringify(calls)}, HANG_CANCELS_FILE = ${JSON.stringify(cancels)} }`,
      ),
    );
    const c = await client(via);
    await c.listTools();
    const abort = new AbortController();
    const call = c.callTool({ name: 'hang', arguments: {} }, undefined, { signal: abort.signal }).catch((err: Error) => err);
    await expect.poll(() => fs.existsSync(calls), { timeout: 5_000 }).toBe(true);
    abort.abort('the user pressed escape');
    expect(await call).toBeInstanceOf(Error);
    await expect
      .poll(() => (fs.existsSync(cancels) ? fs.readFileSync(cancels, 'utf8').trim() : ''), { timeout: 5_000 })
      .toBe(fs.readFileSync(calls, 'utf8').trim());
    expect(textOf(await c.callTool({ name: 'echo', arguments: { text: 'still fine' } }))).toBe('still fine');
    expect((await daemon!.client.status()).servers[0]!.state).toBe('connected');
  });

  it('a workspace stays open while a client is connected and closes after its last client leaves and the idle period', async () => {
    await start(fixture('fix', 'env-dump', 'auto_approve = true'), 'workspace_idle_minutes = 0');
    const c = await client(via);
    await c.listTools();
    const [open] = await daemon!.client.listWorkspaces();
    expect(open).toMatchObject({ root: workspace, clients: 1 });
    const pid = (await daemon!.client.listWorkspaceServers(open!.id))[0]!.pid!;
    expect(isAlive(pid)).toBe(true);
    // A client that ends its session (DELETE, or its connection); one that just vanishes from HTTP is reaped later (SessionReaper).
    if (via === 'http') await (c.transport as StreamableHTTPClientTransport).terminateSession();
    await c.close();
    clients.length = 0;
    await expect.poll(async () => (await daemon!.client.listWorkspaces()).length, { timeout: 5_000 }).toBe(0);
    // Listed as closed at once; its servers are then closed in order (stdin, SIGTERM, SIGKILL).
    await expect.poll(() => isAlive(pid), { timeout: 12_000 }).toBe(false);
  });
});

describe('the aggregated MCP endpoint over streamable HTTP', () => {
  it('an approval question travels on the call’s own stream, for a client without an event stream; nothing runs before initialize', async () => {
    await start(fixture('fix', 'env-dump'));
    const url = `http://127.0.0.1:${daemon!.state.port}/mcp?workspace=${encodeURIComponent(workspace)}`;
    const headers = {
      authorization: `Bearer ${daemon!.state.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const rpc = (body: unknown, session?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { ...headers, ...(session ? { 'mcp-session-id': session } : {}) },
        body: JSON.stringify(body),
      });

    const early = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });
    expect(early.status).toBe(400);
    expect(await daemon!.client.listWorkspaces()).toEqual([]);

    const init = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '0' } },
    });
    const session = init.headers.get('mcp-session-id')!;
    await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    await (await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session)).text();
    const call = await rpc(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'asked' } } },
      session,
    );
    expect(call.headers.get('content-type')).toBe('text/event-stream');
    const reader = call.body!.getReader();
    const first = JSON.parse(new TextDecoder().decode((await reader.read()).value).split('data: ')[1]!);
    expect(first).toMatchObject({ method: 'elicitation/create', params: { message: 'Run echo (MCP server "fix")\ntext=asked' } });
    await rpc({ jsonrpc: '2.0', id: first.id, result: { action: 'accept', content: { decision: 'allow_once' } } }, session);
    let rest = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(JSON.parse(rest.split('data: ')[1]!)).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: 'asked' }] } });
  });
});

describe('/mcp upgraded to lines (blitz-mcp-lines)', () => {
  /** A raw upgrade request; resolves to the socket on 101, or to the refusal's status and body. */
  function upgrade(
    opts: { path?: string; token?: string; protocol?: string; host?: string; method?: string; origin?: string } = {},
  ): Promise<{ socket: net.Socket } | { status: number; body: string }> {
    const { port, token } = daemon!.state;
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: opts.path ?? `/mcp?workspace=${encodeURIComponent(workspace)}`,
        headers: {
          connection: 'Upgrade',
          upgrade: opts.protocol ?? 'blitz-mcp-lines',
          authorization: `Bearer ${opts.token ?? token}`,
          host: opts.host ?? `127.0.0.1:${port}`,
          ...(opts.origin ? { origin: opts.origin } : {}),
        },
        agent: false,
      });
      req.once('upgrade', (_res, socket) => resolve({ socket: socket as net.Socket }));
      req.once('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.once('error', reject);
      req.end();
    });
  }

  /** The answers (lines with an id) as they arrive on a socket, parsed; notifications are left out. */
  function answers(socket: net.Socket): unknown[] {
    const received: unknown[] = [];
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString();
      const parts = text.split('\n');
      text = parts.pop()!;
      for (const message of parts.map((part) => JSON.parse(part) as { id?: unknown })) if (message.id !== undefined) received.push(message);
    });
    return received;
  }

  it('is guarded like any request: token, Host, Origin, method, protocol and path', async () => {
    await start(fixture('fix', 'env-dump', 'auto_approve = true'));
    expect(await upgrade({ token: 'wrong' })).toMatchObject({
      status: 401,
      body: expect.stringContaining('missing or wrong bearer token'),
    });
    expect(await upgrade({ host: 'evil.example:80' })).toMatchObject({ status: 403, body: expect.stringContaining('is not this daemon') });
    expect(await upgrade({ origin: 'https://evil.example' })).toMatchObject({
      status: 403,
      body: expect.stringContaining('requests from https://evil.example are not allowed'),
    });
    expect(await upgrade({ method: 'POST' })).toMatchObject({
      status: 400,
      body: expect.stringContaining('/mcp upgrades only a GET, only to blitz-mcp-lines'),
    });
    // An upgrade Blitz does not offer is declined: the request is served as plain HTTP/1.1, guarded as ever.
    const health = await upgrade({ protocol: 'h2c', path: '/v1/health' });
    expect(health).toMatchObject({ status: 200 });
    expect(JSON.parse((health as { body: string }).body)).toMatchObject({ ok: true });
    expect(await upgrade({ protocol: 'h2c', path: '/v1/health', token: 'wrong' })).toMatchObject({ status: 401 });
    expect(await upgrade({ protocol: 'websocket' })).toMatchObject({
      status: 400,
      body: expect.stringContaining('no session; send initialize first'),
    });
    expect(await upgrade({ path: '/v1/status' })).toMatchObject({ status: 404 });
    expect(await upgrade({ path: `/mcp?mode=write-all` })).toMatchObject({
      status: 400,
      body: expect.stringContaining('unknown mode write-all'),
    });
    expect(await daemon!.client.listWorkspaces()).toEqual([]);
  });

  it('the connection is the session: a line too long is answered and skipped; closing it lets the workspace go', async () => {
    await start(fixture('fix', 'env-dump', 'auto_approve = true'), 'workspace_idle_minutes = 0');
    const opened = await upgrade();
    if (!('socket' in opened)) throw new Error(`refused: ${opened.status} ${opened.body}`);
    const { socket } = opened;
    const received = answers(socket);
    socket.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } })}\n`,
    );
    socket.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toMatchObject({ id: 1, result: { serverInfo: { name: 'blitz' } } });
    expect(await daemon!.client.listWorkspaces()).toMatchObject([{ root: workspace, clients: 1 }]);

    socket.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(5 * 1024 * 1024) } } })}\n`,
    );
    socket.write('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"after"}}}\n');
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(3);
    expect(received[1]).toMatchObject({
      id: 2,
      error: { code: -32600, message: expect.stringMatching(/^a message of \d+ bytes is more than the limit of 4194304 bytes/) },
    });
    expect(received[2]).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: 'after' }] } });

    socket.destroy();
    await expect.poll(async () => (await daemon!.client.listWorkspaces()).length, { timeout: 5_000 }).toBe(0);
    // Nothing of the session is left to hold the daemon: it stops cleanly, and says so.
    expect(await daemon!.stop()).toBe(0);
    daemon = undefined;
    expect(fs.existsSync(path.join(home, 'state', 'daemon.json'))).toBe(false);
  });
});
