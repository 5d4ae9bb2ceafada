import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf, type HubTransport } from '../support/hub-client.js';

// Issue 13: what the hub routes besides tools — completions, logging, resource subscriptions,
// server instructions — and the metadata it must pass through unchanged. One daemon for the
// file; each test opens a workspace of its own, so its servers are fresh processes.
const EVERYTHING = path.join(
  path.dirname(
    createRequire(path.join(import.meta.dirname, '..', '..', 'packages', 'core', 'package.json')).resolve(
      '@modelcontextprotocol/server-everything/package.json',
    ),
  ),
  'dist',
  'index.js',
);

const protocol = fixtureCommand('protocol');
const resources = fixtureCommand('resources');
const hang = fixtureCommand('hang-call');
const SERVERS = [
  { name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], extra: '' },
  { name: 'px', command: protocol.command, args: protocol.args, extra: 'prefix = "px"\n' },
  // A server that offers prompts but no completions, and no instructions.
  { name: 'rs', command: resources.command, args: resources.args, extra: 'prefix = "rs"\n' },
  // Two calls of its `hang` time out: its breaker pauses it.
  { name: 'slow', command: hang.command, args: hang.args, extra: 'prefix = "hc"\ntimeout_seconds = 1\n' },
];

let home: string;
let daemon: RunningDaemon;
const dirs: string[] = [];
const sessions: Session[] = [];

/** The file's settings; a `mark` changes the protocol server's settings (its env), which restarts it; `without` leaves a server out. */
function settings(mark?: string, without?: string): string {
  const entry = (s: (typeof SERVERS)[number]) =>
    `[[mcp.servers]]\nname = "${s.name}"\ncommand = ${JSON.stringify(s.command)}\nargs = ${JSON.stringify(s.args)}\nsandbox = false\nauto_approve = true\n${s.extra}${s.name === 'px' && mark ? `env = { PROTOCOL_MARK = "${mark}" }\n` : ''}`;
  // list_wait_ms: a session is introduced by what its servers announced (completions, subscribe),
  // so each waits for all of them to start, however loaded the machine.
  return `[daemon]\nport = 0\n\n[hub]\nlist_wait_ms = 120000\n\n${SERVERS.filter((s) => s.name !== without)
    .map(entry)
    .join('\n')}`;
}

beforeAll(async () => {
  home = tempDir('blitz-routing-');
  writeSettings(home, settings());
  daemon = await startDaemonProcess(home);
});

afterAll(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.client.close().catch(() => undefined)));
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of [home, ...dirs]) fs.rmSync(dir, { recursive: true, force: true });
});

function newWorkspace(): string {
  const dir = tempDir('blitz-routing-ws-');
  dirs.push(dir);
  return dir;
}

type Log = LoggingMessageNotification['params'];

/** A client of the hub with what it heard: log messages, resource updates and resources list changes, in order. */
interface Session {
  client: Client;
  logs: Log[];
  updates: string[];
  resourceListChanges: number;
  /** Resolves once `check` holds of what was heard (checked at each message). */
  until(check: () => boolean, what: string): Promise<void>;
}

async function open(via: HubTransport, workspace: string): Promise<Session> {
  const client = await connectHub(daemon.state, { workspace, via });
  const logs: Log[] = [];
  const updates: string[] = [];
  const waiters = new Set<() => void>();
  const heard = () => {
    for (const w of [...waiters]) w();
  };
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params);
    heard();
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
    heard();
  });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    session.resourceListChanges++;
    heard();
  });
  const until = (check: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      // Bounded only so a failure names what was awaited; the awaited message normally comes in well under a second.
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`never heard ${what}; heard logs ${JSON.stringify(logs)} and updates ${JSON.stringify(updates)}`));
      }, 30_000);
      const waiter = () => {
        if (!check()) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve();
      };
      waiters.add(waiter);
    });
  const session = { client, logs, updates, resourceListChanges: 0, until };
  sessions.push(session);
  return session;
}

/** Ends a session as a client that says so: DELETE over HTTP, the connection closed over lines. */
async function leave(s: Session): Promise<void> {
  if (s.client.transport instanceof StreamableHTTPClientTransport) await s.client.transport.terminateSession();
  await s.client.close();
}

/** What the protocol fixture server was asked by the hub (subscribe, unsubscribe, setLevel). */
async function upstream(s: Session): Promise<{ subscribe: string[]; unsubscribe: string[]; setLevel: string[]; mark: string | null }> {
  return JSON.parse(textOf(await s.client.callTool({ name: 'px__upstream', arguments: {} })));
}

/** Polls a condition on a server's state through the hub until it holds (bounded, to fail with what was read). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read().catch((err: Error) => err);
    if (!(value instanceof Error) && check(value)) return value;
    if (Date.now() > deadline) throw new Error(`never held: ${value instanceof Error ? value.message : JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const subscribeAck = (uri: string) => (l: Log) =>
  typeof l.data === 'string' && l.data.startsWith(`Received Subscribe Resource request for URI: ${uri}`);

describe.each<HubTransport>(['http', 'lines'])('the hub routes MCP over %s', (via) => {
  it('completion/complete goes to the owner of the prompt or template; an unknown one is -32602; at most 100 values; a server without completions suggests none', async () => {
    const s = await open(via, newWorkspace());
    expect(s.client.getServerCapabilities()?.completions).toEqual({});
    const complete = (
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
      name: string,
      value: string,
      context?: Record<string, string>,
    ) => s.client.complete({ ref, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) });
    // Unprefixed server-everything: its prompt, its argument context, its template.
    expect((await complete({ type: 'ref/prompt', name: 'completable-prompt' }, 'department', 'E')).completion.values).toEqual([
      'Engineering',
    ]);
    expect(
      (await complete({ type: 'ref/prompt', name: 'completable-prompt' }, 'name', '', { department: 'Sales' })).completion.values,
    ).toEqual(['David', 'Eve', 'Frank']);
    expect(
      (await complete({ type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' }, 'resourceId', '7')).completion.values,
    ).toEqual(['7']);
    // A prefixed prompt is asked for under its original name; 150 values are cut to 100.
    expect((await complete({ type: 'ref/prompt', name: 'px__pick' }, 'value', 'v')).completion).toEqual({
      values: Array.from({ length: 100 }, (_, i) => `v${String(i).padStart(3, '0')}`),
      total: 150,
      hasMore: true,
    });
    expect((await complete({ type: 'ref/prompt', name: 'px__pick' }, 'value', 'v14')).completion.values).toHaveLength(10);
    expect((await complete({ type: 'ref/resource', uri: 'fixture://items/{id}' }, 'id', '')).completion.values).toEqual(['1', '2', '3']);
    expect((await complete({ type: 'ref/prompt', name: 'rs__greet' }, 'who', 'a')).completion).toEqual({ values: [], hasMore: false });
    await expect(complete({ type: 'ref/prompt', name: 'pick' }, 'value', 'v')).rejects.toThrow(/^MCP error -32602: unknown prompt pick$/);
    await expect(complete({ type: 'ref/resource', uri: 'nowhere://{x}' }, 'x', '')).rejects.toThrow(
      /^MCP error -32602: no MCP server offers resource template nowhere:\/\/\{x\}$/,
    );
  });

  it('subscriptions are counted per session: the server is asked once, updates reach exactly the subscribed sessions, the last to leave ends it', async () => {
    const workspace = newWorkspace();
    const [a, b, c] = [await open(via, workspace), await open(via, workspace), await open(via, workspace)];
    expect(a.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    await a.client.subscribeResource({ uri: 'fixture://doc' });
    await b.client.subscribeResource({ uri: 'fixture://doc' });
    // A URI made from a template is owned by the server whose template matches it.
    await c.client.subscribeResource({ uri: 'fixture://items/9' });
    expect(await upstream(c)).toMatchObject({ subscribe: ['fixture://doc', 'fixture://items/9'], unsubscribe: [] });

    // The server announces a change of doc, then of the item: c hears only the item, which comes after.
    await c.client.callTool({ name: 'px__touch', arguments: { uri: 'fixture://doc' } });
    await c.client.callTool({ name: 'px__touch', arguments: { uri: 'fixture://items/9' } });
    await Promise.all([
      a.until(() => a.updates.length === 1, 'doc updated'),
      b.until(() => b.updates.length === 1, 'doc updated'),
      c.until(() => c.updates.length === 1, 'item updated'),
    ]);
    expect([a.updates, b.updates, c.updates]).toEqual([['fixture://doc'], ['fixture://doc'], ['fixture://items/9']]);

    await a.client.unsubscribeResource({ uri: 'fixture://doc' });
    expect((await upstream(c)).unsubscribe).toEqual([]);
    // b's session ends without unsubscribing: the hub lets the server go for it.
    await leave(b);
    expect(
      (
        await eventually(
          () => upstream(c),
          (u) => u.unsubscribe.length > 0,
        )
      ).unsubscribe,
    ).toEqual(['fixture://doc']);
    await c.client.callTool({ name: 'px__touch', arguments: { uri: 'fixture://doc' } });
    await a.client.subscribeResource({ uri: 'fixture://items/9' });
    await c.client.callTool({ name: 'px__touch', arguments: { uri: 'fixture://items/9' } });
    await a.until(() => a.updates.length === 2, 'item updated');
    expect(a.updates).toEqual(['fixture://doc', 'fixture://items/9']);
    // The second subscriber to the item was not passed on.
    expect((await upstream(c)).subscribe).toEqual(['fixture://doc', 'fixture://items/9']);

    // A settings edit restarts the server: the new process is told the subscriptions held (the item's, by a and c).
    writeSettings(home, settings(via));
    expect(
      await eventually(
        () => upstream(c),
        (u) => u.mark === via && u.subscribe.length > 0,
      ),
    ).toMatchObject({ subscribe: ['fixture://items/9'], unsubscribe: [] });
    await c.client.callTool({ name: 'px__touch', arguments: { uri: 'fixture://items/9' } });
    await Promise.all([
      a.until(() => a.updates.length === 3, 'item updated after the edit'),
      c.until(() => c.updates.length === 3, 'item updated after the edit'),
    ]);
  });

  it('server-everything: two sessions subscribed to one URI, one leaving; the server restarted under a subscription is subscribed again', async () => {
    const workspace = newWorkspace();
    const [a, b] = [await open(via, workspace), await open(via, workspace)];
    const uri = (await a.client.listResources()).resources.find((r) => r.uri.startsWith('demo://resource/static/document/'))!.uri;
    await a.client.subscribeResource({ uri });
    await b.client.subscribeResource({ uri });
    // The first update is sent at once when updates are switched on.
    await a.client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await Promise.all([
      a.until(() => a.updates.includes(uri), 'the first update'),
      b.until(() => b.updates.includes(uri), 'the first update'),
    ]);
    await leave(b);
    // The next one comes on the server's own 5 s pace, to a alone.
    const heard = a.updates.length;
    await a.until(() => a.updates.length > heard, 'the next update');

    expect(await runBlitz(['mcp', 'restart', 'everything', '--workspace', workspace], { home })).toMatchObject({ code: 0 });
    a.logs.length = 0;
    a.updates.length = 0;
    // Its next use starts it; the hub subscribes it again (the server acknowledges in a log message).
    await a.client.listTools();
    await a.until(() => a.logs.some(subscribeAck(uri)), 'the server acknowledge the new subscription');
    await a.client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await a.until(() => a.updates.includes(uri), 'an update after the restart');
    await a.client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
  });

  it('a server removed from the settings ends its subscriptions: the subscribed session hears its resources list changed and a warning naming them, another session no warning', async () => {
    const workspace = newWorkspace();
    const [a, b] = [await open(via, workspace), await open(via, workspace)];
    await a.client.subscribeResource({ uri: 'fixture://doc' });
    await a.client.subscribeResource({ uri: 'fixture://items/9' });
    const before = fs.readFileSync(path.join(home, 'settings.toml'), 'utf8');
    const changes = a.resourceListChanges;
    const ended = (l: Log) => l.logger === 'blitz' && typeof l.data === 'string' && l.data.includes('was removed from the settings');
    try {
      writeSettings(home, settings(via, 'px'));
      await a.until(() => a.logs.some(ended) && a.resourceListChanges > changes, 'the subscriptions end');
      expect(a.logs.filter(ended)).toEqual([
        {
          level: 'warning',
          logger: 'blitz',
          data: 'MCP server px was removed from the settings: the subscriptions to fixture://doc, fixture://items/9 have ended',
        },
      ]);
      // b hears the catalog change as every session does, and nothing of subscriptions it never had.
      await b.client.listTools();
      expect(b.logs.filter(ended)).toEqual([]);
    } finally {
      writeSettings(home, before);
      await eventually(
        async () => (await a.client.listTools()).tools.map((t) => t.name),
        (names) => names.includes('px__upstream'),
      );
    }
  });

  it('a log message sent during a request goes to the session that made it, with the server as logger; a session at error hears no info; the most verbose level asked for is passed on', async () => {
    const workspace = newWorkspace();
    const [a, b] = [await open(via, workspace), await open(via, workspace)];
    // server-everything says once, to every session, when it read its client's roots: not what this test is about.
    const said = (s: Session) => s.logs.filter((l) => !String(l.data).startsWith('Roots updated'));
    const uris = (await a.client.listResources()).resources
      .map((r) => r.uri)
      .filter((u) => u.startsWith('demo://resource/static/document/'));
    await a.client.subscribeResource({ uri: uris[0]! });
    // Sent during the request, so it is here by the answer; b made no request.
    expect(said(a)).toEqual([
      expect.objectContaining({ level: 'info', logger: 'everything', data: expect.stringContaining(`URI: ${uris[0]}`) }),
    ]);
    await b.client.callTool({ name: 'px__log', arguments: { level: 'info', message: 'from b' } });
    expect(said(b)).toEqual([{ level: 'info', logger: 'px', data: 'from b' }]);
    await b.client.callTool({ name: 'px__log', arguments: { level: 'notice', message: 'named', logger: 'own-logger' } });
    expect(said(b).at(-1)).toEqual({ level: 'notice', logger: 'own-logger', data: 'named' });
    expect(said(a)).toHaveLength(1);

    await a.client.setLoggingLevel('error');
    await b.client.setLoggingLevel('info');
    expect((await upstream(a)).setLevel).toEqual(['error', 'info']);
    await a.client.subscribeResource({ uri: uris[1]! });
    await a.client.callTool({ name: 'px__log', arguments: { level: 'info', message: 'below a' } });
    await a.client.callTool({ name: 'px__log', arguments: { level: 'error', message: 'for a' } });
    expect(said(a).slice(1)).toEqual([{ level: 'error', logger: 'px', data: 'for a' }]);
    await b.client.subscribeResource({ uri: uris[2]! });
    expect(said(b).at(-1)).toMatchObject({ level: 'info', logger: 'everything', data: expect.stringContaining(`URI: ${uris[2]}`) });
    // b leaves: the most verbose level asked for is a's again.
    await leave(b);
    expect(
      (
        await eventually(
          () => upstream(a),
          (u) => u.setLevel.length > 2,
        )
      ).setLevel,
    ).toEqual(['error', 'info', 'error']);
  });

  it('a log message sent outside any request reaches every session of the workspace', async () => {
    const workspace = newWorkspace();
    const [a, b] = [await open(via, workspace), await open(via, workspace)];
    // server-everything sends one message at once (during a's call), then one every 5 s outside any request.
    await a.client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    await b.until(() => b.logs.some((l) => l.logger === 'everything'), 'a simulated log message');
    await a.client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
  });

  it("initialize carries each server's own instructions under its name and prefix, as its words, in settings order, cut at 8 KB", async () => {
    const s = await open(via, newWorkspace());
    const instructions = s.client.getInstructions()!;
    // The deferred-tools paragraph comes second, inside the 2,048 characters Claude Code keeps (57e918e).
    expect(instructions).toMatch(
      /^Blitz: the MCP servers of .*, for agent main\.\n\nDeferred tools: [^\n]*\n\nEach server's own instructions follow, as that server wrote them \(its words, not Blitz's\)/,
    );
    const everything = instructions.indexOf(
      '<server-instructions server="everything" prefix="">\n## MCP server everything (tools unprefixed)\n# Everything Server',
    );
    const px = instructions.indexOf(
      '<server-instructions server="px" prefix="px__">\n## MCP server px (tools named px__<tool>)\nProtocol fixture: call describe first.',
    );
    expect(everything).toBeGreaterThan(0);
    expect(px).toBeGreaterThan(everything);
    const pxSection = instructions.slice(px, instructions.indexOf('\n</server-instructions>', px));
    expect(pxSection).not.toContain('END OF INSTRUCTIONS');
    expect(pxSection).toMatch(/\[… cut by Blitz at 8 KB of \d+ bytes\]$/);
    expect(instructions).not.toContain('server="rs"');
  });

  it("a tool of a server its breaker paused is refused in MCP-32's words, not as an unknown tool", async () => {
    const s = await open(via, newWorkspace());
    expect((await s.client.listTools()).tools.map((t) => t.name)).toContain('hc__hang');
    for (const _ of [1, 2])
      expect(textOf(await s.client.callTool({ name: 'hc__hang', arguments: {} }))).toBe('MCP tool hang timed out after 1s');
    // The client has not listed again: it calls the tool it knows.
    const refused = await s.client.callTool({ name: 'hc__hang', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^MCP server slow is unavailable after repeated failures; retrying in 1[45]s$/);
    expect((await s.client.listTools()).tools.map((t) => t.name)).not.toContain('hc__hang');
    await expect(s.client.callTool({ name: 'hc__nope', arguments: {} })).rejects.toThrow(/^MCP error -32602: unknown tool hc__nope$/);
  });

  it('metadata passes through unchanged: tools, prompts, resources and results compared with the servers’ own answers', async () => {
    const s = await open(via, newWorkspace());
    const direct = async (command: string, args: string[]) => {
      const client = new Client({ name: 'direct', version: '1' });
      await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
      return client;
    };
    const [px, everything] = [await direct(protocol.command, protocol.args), await direct(process.execPath, [EVERYTHING, 'stdio'])];
    try {
      const hubTools = new Map((await s.client.listTools()).tools.map((t) => [t.name, t]));
      for (const tool of (await px.listTools()).tools)
        expect(hubTools.get(`px__${tool.name}`)).toEqual({ ...tool, name: `px__${tool.name}` });
      // server-everything adds tools for what its client offers: compare those both see.
      const everythingTools = (await everything.listTools()).tools.filter((t) => hubTools.has(t.name));
      expect(everythingTools.length).toBeGreaterThan(10);
      for (const tool of everythingTools) expect(hubTools.get(tool.name)).toEqual(tool);
      expect(hubTools.get('px__describe')).toMatchObject({
        title: 'Describe',
        annotations: { title: 'Describe (annotated)' },
        outputSchema: { required: ['answer'] },
        icons: [{ mimeType: 'image/png' }],
        _meta: { 'example.com/tag': 'kept' },
      });

      const hubPrompts = new Map((await s.client.listPrompts()).prompts.map((p) => [p.name, p]));
      for (const prompt of (await px.listPrompts()).prompts)
        expect(hubPrompts.get(`px__${prompt.name}`)).toEqual({ ...prompt, name: `px__${prompt.name}` });
      for (const prompt of (await everything.listPrompts()).prompts) expect(hubPrompts.get(prompt.name)).toEqual(prompt);
      const hubResources = (await s.client.listResources()).resources;
      for (const resource of [...(await px.listResources()).resources, ...(await everything.listResources()).resources])
        expect(hubResources).toContainEqual(resource);
      const hubTemplates = (await s.client.listResourceTemplates()).resourceTemplates;
      for (const template of [
        ...(await px.listResourceTemplates()).resourceTemplates,
        ...(await everything.listResourceTemplates()).resourceTemplates,
      ])
        expect(hubTemplates).toContainEqual(template);

      // Results: structuredContent, resource_link, embedded resources, annotations and _meta.
      expect(await s.client.callTool({ name: 'px__describe', arguments: {} })).toEqual(
        await px.callTool({ name: 'describe', arguments: {} }),
      );
      for (const [name, args] of [
        ['get-structured-content', { location: 'Chicago' }],
        ['get-resource-links', { count: 2 }],
        ['get-annotated-message', { messageType: 'error', includeImage: true }],
      ] as const) {
        expect(await s.client.callTool({ name, arguments: args })).toEqual(await everything.callTool({ name, arguments: args }));
      }
      // A client's _meta.progressToken: the server is given one of the hub's (its progress coming back is hub.real.test.ts's).
      expect(textOf(await s.client.callTool({ name: 'px__progress', arguments: {} }, undefined, { onprogress: () => undefined }))).toBe(
        'progress token present',
      );
      expect(textOf(await s.client.callTool({ name: 'px__progress', arguments: {} }))).toBe('progress token absent');
    } finally {
      await Promise.all([px.close(), everything.close()]);
    }
  });
});
