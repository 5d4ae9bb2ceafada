import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeClock } from '@blitz/clock';
import { inMemoryConnector, type FakeServer } from '../testing/in-memory-connector.js';
import type { Connector } from '../connection/connector.js';
import { Manager } from './manager.js';
import type { ManagerEvent } from './manager-event.js';
import { callByName } from '../testing/call-by-name.js';
import { resolvedServer } from '../testing/server-config.js';

const server = resolvedServer;

function tools(...names: string[]): FakeServer {
  return {
    setup(s: McpServer) {
      for (const name of names) {
        s.registerTool(name, { inputSchema: { text: z.string().optional() } }, async (args) => ({
          content: [{ type: 'text', text: `${name}:${String(args.text ?? '')}` }],
        }));
      }
    },
  };
}

let manager: Manager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
});

function setup(fakes: Record<string, FakeServer>, clock = new FakeClock()) {
  const fake = inMemoryConnector(fakes);
  const events: ManagerEvent[] = [];
  manager = new Manager({
    workspace: '/ws',
    connector: fake.connector,
    clock,
    builtIns: ['list_mcp_resources'],
    onEvent: (e) => events.push(e),
  });
  return { manager, fake, events, clock };
}

describe('Manager', () => {
  it('starts nothing until tools are first listed (MCP-10), then connects every server in parallel', async () => {
    const { manager, fake } = setup({ a: tools('echo'), b: tools('add') });
    await manager.update({ servers: [server('a'), server('b')] });
    expect(fake.connects.size).toBe(0);
    expect(manager.states().map((s) => s.state)).toEqual(['idle', 'idle']);
    const listed = await manager.listTools();
    expect(listed.map((e) => [e.exposedName, e.server])).toEqual([
      ['echo', 'a'],
      ['add', 'b'],
    ]);
    expect(manager.states().map((s) => [s.name, s.state, s.tools])).toEqual([
      ['a', 'connected', ['echo']],
      ['b', 'connected', ['add']],
    ]);
  });

  it('update keeps unchanged servers, restarts changed ones, stops removed and disabled ones, adds new ones lazily (MCP-45)', async () => {
    const { manager, fake } = setup({ same: tools('x'), changed: tools('y'), removed: tools('z'), off: tools('w'), added: tools('v') });
    await manager.update({ servers: [server('same'), server('changed'), server('removed'), server('off')] });
    await manager.listTools();
    const pid = manager.connection('same').pid;
    const removedLink = fake.live.get('removed')!;

    const result = await manager.update({
      servers: [
        server('same'),
        server('changed', { transport: { kind: 'stdio', command: 'changed', args: ['--new'], env: {} } }),
        server('off', { disabled: true }),
        server('added'),
      ],
    });
    expect(result.changed.sort()).toEqual(['added', 'changed', 'off', 'removed']);
    expect(manager.connection('same').pid).toBe(pid);
    expect(fake.live.has('removed')).toBe(false);
    expect(fake.live.get('removed')).not.toBe(removedLink);
    expect(fake.live.has('changed')).toBe(false);
    expect(fake.live.has('off')).toBe(false);
    expect(manager.states().map((s) => [s.name, s.state])).toEqual([
      ['same', 'connected'],
      ['changed', 'idle'],
      ['off', 'disabled'],
      ['added', 'idle'],
    ]);
    await manager.listTools();
    expect(Object.fromEntries(fake.connects)).toEqual({ same: 1, changed: 2, removed: 1, off: 1, added: 1 });
    expect(manager.states().find((s) => s.name === 'off')!.state).toBe('disabled');
  });

  it("a change to the hub's policy alone (approval, allow-list, prefix, exposure, agents, timeouts) keeps the server running and re-exposes its catalog; a launch setting restarts it (issue 26.1)", async () => {
    const { manager, fake, events } = setup({ a: tools('x', 'y') });
    await manager.update({ servers: [server('a')] });
    await manager.listTools();
    const pid = manager.connection('a').pid;
    const before = manager.catalog();
    events.length = 0;

    const policy = {
      autoApprove: true,
      tools: ['y'],
      prefix: 'p',
      exposure: 'direct' as const,
      agents: ['*'],
      timeoutSeconds: 10,
      startupTimeoutSeconds: 5,
    };
    const result = await manager.update({ servers: [server('a', policy)] });
    expect(result.changed).toEqual(['a']);
    expect(fake.connects.get('a')).toBe(1);
    expect(manager.connection('a').pid).toBe(pid);
    expect(manager.connection('a').config).toMatchObject(policy);
    expect(manager.catalog()).not.toBe(before);
    expect(
      manager
        .catalog()
        .list()
        .map((e) => e.exposedName),
    ).toEqual(['p__y']);
    expect(
      manager
        .catalog('reviewer')
        .list()
        .map((e) => e.exposedName),
    ).toEqual(['p__y']);
    expect(events).toContainEqual({ type: 'catalog' });
    expect((await manager.resolveTool('main', 'p__y')).config.autoApprove).toBe(true);

    // What the process sees (here its env) is another process.
    await manager.update({
      servers: [server('a', { ...policy, transport: { kind: 'stdio', command: 'a', args: [], env: { MODE: 'x' } } })],
    });
    await manager.listTools();
    expect(fake.connects.get('a')).toBe(2);
    expect(manager.connection('a').pid).not.toBe(pid);
  });

  it('startInBackground starts the servers an update changed, without a listing; their tools reach the catalog, a failed start is a notice', async () => {
    const broken: FakeServer = { ...tools('w'), failConnect: true };
    const { manager, fake, events } = setup({ lazy: tools('x'), added: tools('y'), off: tools('z'), broken });
    await manager.update({ servers: [server('lazy')] });
    const { changed } = await manager.update({
      servers: [server('lazy'), server('added'), server('off', { disabled: true }), server('broken')],
    });
    events.length = 0;
    manager.startInBackground(changed);
    await expect
      .poll(() =>
        manager
          .catalog()
          .list()
          .map((e) => e.exposedName),
      )
      .toEqual(['y']);
    // The hub tells clients of a status change as of a catalog change.
    expect(events).toContainEqual({ type: 'status', status: expect.objectContaining({ name: 'added', state: 'connected', tools: ['y'] }) });
    // Only what changed starts: an unchanged lazy server waits for a listing, a disabled one never runs.
    expect(fake.connects.has('lazy')).toBe(false);
    expect(fake.connects.has('off')).toBe(false);
    await expect
      .poll(() => events.flatMap((e) => (e.type === 'notice' ? [e.notice.message] : [])))
      .toEqual(['MCP server broken failed: refused the connection']);
  });

  it('settings with errors change nothing and come back as problems', async () => {
    const { manager } = setup({ a: tools('x') });
    await manager.update({ servers: [server('a')] });
    const problems = [{ severity: 'error' as const, file: '/settings.toml', message: 'not valid TOML' }];
    expect(await manager.update({ servers: [], problems })).toEqual({ problems, changed: [] });
    expect(manager.states().map((s) => s.name)).toEqual(['a']);
  });

  it('a disabled server is listed as disabled, never started, offered to nobody (MCP-41)', async () => {
    const { manager, fake } = setup({ a: tools('x'), b: tools('y') });
    await manager.update({ servers: [server('a', { disabled: true }), server('b')] });
    expect((await manager.listTools()).map((e) => e.exposedName)).toEqual(['y']);
    expect(fake.connects.has('a')).toBe(false);
    expect(manager.states()[0]).toEqual({ name: 'a', state: 'disabled', tools: [], warnings: [] });
  });

  it('a server missing an env variable is failed with its name; the others work', async () => {
    const { manager } = setup({ a: tools('x'), b: tools('y') });
    await manager.update({ servers: [server('a', {}, 'environment variable ${TOKEN} is not set'), server('b')] });
    expect((await manager.listTools()).map((e) => e.exposedName)).toEqual(['y']);
    expect(manager.states()[0]).toMatchObject({
      state: 'failed',
      error: 'MCP server a cannot start: environment variable ${TOKEN} is not set',
    });
  });

  it("a tool_exposure key matching none of the server's tools is a warning naming the file and the line the settings loader finds it on at the time", async () => {
    const fake = inMemoryConnector({ a: tools('x') });
    let line = 11;
    manager = new Manager({
      workspace: '/ws',
      connector: fake.connector,
      clock: new FakeClock(),
      settingLine: (config, field) => (config.name === 'a' && field === 'tool_exposure.pr_*' ? line : undefined),
    });
    await manager.update({ servers: [server('a', { toolExposure: { 'pr_*': 'hidden', x: 'direct' } })] });
    await manager.listTools();
    expect(manager.states()[0]!.warnings).toEqual(['tool_exposure "pr_*" matches no tool the server offers (/settings.toml:11)']);
    // An edit above it moves the line, and changes nothing else: the warning follows.
    line = 12;
    expect(manager.states()[0]!.warnings).toEqual(['tool_exposure "pr_*" matches no tool the server offers (/settings.toml:12)']);
  });

  it('a tools entry the server does not offer is a warning naming the file and the line the settings loader finds the field on at the time, and none before it has listed its tools', async () => {
    const fake = inMemoryConnector({ a: tools('x') });
    let line = 9;
    manager = new Manager({
      workspace: '/ws',
      connector: fake.connector,
      clock: new FakeClock(),
      settingLine: (config, field) => (config.name === 'a' && field === 'tools' ? line : undefined),
    });
    await manager.update({ servers: [server('a', { tools: ['x', 'gone'] })] });
    // Not listed yet: every name would look missing.
    expect(manager.states()[0]!.warnings).toEqual([]);
    await manager.listTools();
    expect(manager.states()[0]!.warnings).toEqual(['tools lists "gone", which the server does not offer (/settings.toml:9)']);
    line = 10;
    expect(manager.states()[0]!.warnings).toEqual(['tools lists "gone", which the server does not offer (/settings.toml:10)']);
  });

  it('routes a prefixed tool to its server under the original name (MCP-21), and a clash goes to the first server', async () => {
    const { manager } = setup({ a: tools('search'), b: tools('search'), c: tools('search') });
    await manager.update({ servers: [server('a'), server('b'), server('c', { prefix: 'gh' })] });
    expect((await manager.listTools()).map((e) => [e.exposedName, e.server, e.originalName])).toEqual([
      ['search', 'a', 'search'],
      ['gh__search', 'c', 'search'],
    ]);
    expect(manager.states()[1]!.warnings).toEqual([expect.stringContaining('server "a" already offers "search"')]);
    const result = await callByName(manager, 'gh__search', { text: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'search:hi' }]);
    await expect(callByName(manager, 'nope', {})).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("passes the tool it resolved to the connection: a plain tool goes by the link's direct lane, one with an output schema by the SDK", async () => {
    const fake = inMemoryConnector({
      a: {
        setup(s: McpServer) {
          s.registerTool('plain', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
          s.registerTool('typed', { inputSchema: { text: z.string() }, outputSchema: { text: z.string() } }, async ({ text }) => ({
            content: [{ type: 'text', text }],
            structuredContent: { text },
          }));
        },
      },
    });
    // A link with a direct lane, as a stdio link has: it says which calls took it.
    const direct: string[] = [];
    const connector: Connector = async (config, opts) => {
      const link = await fake.connector(config, opts);
      return Object.assign(link, {
        callTool: (name: string, args: Record<string, unknown>) => {
          direct.push(name);
          return link.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
        },
      });
    };
    manager = new Manager({ workspace: '/ws', connector, clock: new FakeClock(), onEvent: () => undefined });
    await manager.update({ servers: [server('a')] });
    expect((await callByName(manager, 'plain', { text: 'x' })).content).toEqual([{ type: 'text', text: 'x' }]);
    expect((await callByName(manager, 'typed', { text: 'y' })).structuredContent).toEqual({ text: 'y' });
    // Without the resolved tool the connection cannot tell a plain tool, and every call goes by the SDK.
    expect(direct).toEqual(['plain']);
  });

  it('resolves a call once: the entry, its config and its connection; a cold catalog lists first', async () => {
    const { manager, fake } = setup({ a: tools('search'), b: tools('other') });
    await manager.update({ servers: [server('a', { agents: ['*'] }), server('b', { prefix: 'gh', autoApprove: true })] });
    expect(fake.connects.size).toBe(0);
    const tool = await manager.resolveTool('main', 'gh__other');
    expect(fake.connects.size).toBe(2);
    expect(tool.entry).toMatchObject({ exposedName: 'gh__other', server: 'b', originalName: 'other' });
    expect(tool.connection).toBe(manager.connection('b'));
    expect(tool.config).toMatchObject({ name: 'b', autoApprove: true });
    expect((await manager.callTool(tool, { text: 'x' })).content).toEqual([{ type: 'text', text: 'other:x' }]);
    await expect(manager.resolveTool('main', 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND', reason: 'TOOL_NOT_FOUND' });

    expect(manager.resolveServer('reviewer', 'a')).toMatchObject({ config: { name: 'a' }, connection: manager.connection('a') });
    expect(() => manager.resolveServer('reviewer', 'b')).toThrow(
      expect.objectContaining({
        code: 'NOT_FOUND',
        reason: 'MCP_SERVER_NOT_FOUND',
        message: 'no MCP server named "b" is offered to reviewer in workspace /ws',
      }),
    );
    expect(() => manager.resolveServer('main', 'zz')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('reading the catalog writes nothing: no event, the built catalog stays, its warnings show in the states', async () => {
    const { manager, events } = setup({ a: tools('search'), b: tools('search') });
    await manager.update({ servers: [server('a'), server('b')] });
    // Connected without building a catalog: the first read below builds it, clash and all.
    await Promise.all([manager.connection('a').tools(), manager.connection('b').tools()]);
    events.length = 0;
    const catalog = manager.catalog();
    expect(catalog.list().map((e) => e.server)).toEqual(['a']);
    expect(manager.states()[1]!.warnings).toEqual([expect.stringContaining('server "a" already offers "search"')]);
    expect(manager.catalog()).toBe(catalog);
    expect(events).toEqual([]);
  });

  it("an agent's catalog is the same object until a server it is offered changes what it offers: the identity is its version", async () => {
    const { manager } = setup({ a: tools('a1'), c: tools('c1') });
    await manager.update({ servers: [server('a'), server('c', { agents: ['reviewer'] })] });
    await manager.listTools('main');
    await manager.listTools('reviewer');
    const main = manager.catalog('main');
    const reviewer = manager.catalog('reviewer');
    // c, offered to reviewer only, restarts: main's catalog is rebuilt from the same inputs and kept.
    await manager.restart('c');
    expect(manager.catalog('main')).toBe(main);
    expect(manager.catalog('reviewer')).not.toBe(reviewer);
    expect(manager.catalog('reviewer').list()).toEqual([]);
    // a restarts and lists again: a new listing, a new catalog, with the same tools.
    await manager.restart('a');
    const restarted = manager.catalog('main');
    expect(restarted).not.toBe(main);
    expect(restarted.list()).toEqual([]);
    await manager.listTools('main');
    expect(manager.catalog('main')).not.toBe(restarted);
    expect(
      manager
        .catalog('main')
        .list()
        .map((e) => e.exposedName),
    ).toEqual(['a1']);
  });

  it('filters by agent: empty means main only, "*" every agent', async () => {
    const { manager } = setup({ a: tools('a1'), b: tools('b1'), c: tools('c1') });
    await manager.update({ servers: [server('a'), server('b', { agents: ['*'] }), server('c', { agents: ['reviewer'] })] });
    expect((await manager.listTools('main')).map((e) => e.exposedName)).toEqual(['a1', 'b1']);
    expect((await manager.listTools('reviewer')).map((e) => e.exposedName)).toEqual(['b1', 'c1']);
    await expect(callByName(manager, 'a1', {}, 'reviewer')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a server that keeps failing is paused, its tools leave, and it recovers after the cooldown (MCP-32/33)', async () => {
    const flaky: FakeServer = { ...tools('f'), failConnect: true };
    const { manager, events, clock } = setup({ ok: tools('o'), flaky });
    await manager.update({ servers: [server('ok'), server('flaky')] });
    await manager.listTools();
    await manager.listTools();
    expect(manager.states()[1]).toMatchObject({
      state: 'paused',
      error: 'MCP server flaky refused the connection',
      retryAt: clock.now() + 15_000,
    });
    const notices = () => events.flatMap((e) => (e.type === 'notice' ? [`${e.notice.kind}: ${e.notice.message}`] : []));
    expect(notices()).toEqual([
      'failed: MCP server flaky failed: refused the connection',
      'paused: MCP server flaky is paused after repeated failures (refused the connection); retrying in 15s',
    ]);
    // While paused, listing does not even try.
    await manager.listTools();
    expect(manager.states()[1]!.state).toBe('paused');

    flaky.failConnect = false;
    const before = events.filter((e) => e.type === 'catalog').length;
    clock.advance(15_000);
    expect(events.filter((e) => e.type === 'catalog').length).toBeGreaterThan(before);
    expect((await manager.listTools()).map((e) => e.exposedName)).toEqual(['o', 'f']);
    expect(notices().slice(2)).toEqual(['recovered: MCP server flaky recovered']);
    expect(events.filter((e) => e.type === 'failure').map((e) => e.type === 'failure' && e.server)).toEqual(['flaky', 'flaky']);
  });

  it('a server that dies is noticed: the catalog changes and the next call starts it afresh (MCP-11)', async () => {
    const { manager, fake, events } = setup({ a: tools('x') });
    await manager.update({ servers: [server('a')] });
    await manager.listTools();
    fake.live.get('a')!.kill();
    await expect.poll(() => manager.states()[0]!.state).toBe('failed');
    expect(manager.states()[0]!.error).toBe('MCP server a exited with code 1');
    expect(events.some((e) => e.type === 'catalog')).toBe(true);
    expect((await callByName(manager, 'x', { text: 'again' })).content).toEqual([{ type: 'text', text: 'x:again' }]);
    expect(fake.connects.get('a')).toBe(2);
  });

  it("a server's tools/list_changed refreshes its tools once per burst and emits a catalog change", async () => {
    let registerMore: (() => void) | undefined;
    const { manager, events, clock } = setup({
      a: {
        setup(s) {
          s.registerTool('first', {}, async () => ({ content: [] }));
          registerMore = () => {
            s.registerTool('second', {}, async () => ({ content: [] }));
            s.registerTool('third', {}, async () => ({ content: [] }));
          };
        },
      },
    });
    await manager.update({ servers: [server('a')] });
    await manager.listTools();
    clock.advance(1000);
    events.length = 0;
    registerMore!();
    await expect.poll(() => clock.pendingTimers()).toBeGreaterThan(0);
    clock.advance(200);
    await expect
      .poll(() =>
        manager
          .catalog()
          .list()
          .map((e) => e.exposedName),
      )
      .toEqual(['first', 'second', 'third']);
    expect(events.filter((e) => e.type === 'catalog')).toHaveLength(1);
  });

  it('restart forgets a server wanted a sign-in: it shows idle, and the next listing tries afresh (issue 26.2)', async () => {
    const signIn: FakeServer = { ...tools('x'), needsSignIn: true };
    const { manager } = setup({ a: signIn });
    await manager.update({ servers: [server('a')] });
    await manager.listTools();
    expect(manager.states()[0]!.state).toBe('needsSignIn');
    signIn.needsSignIn = false;
    await manager.restart('a');
    expect(manager.states()[0]!.state).toBe('idle');
    expect((await manager.listTools()).map((e) => e.exposedName)).toEqual(['x']);
  });

  it('restart stops a server so the next listing starts it afresh; an unknown name is NOT_FOUND', async () => {
    const { manager, fake } = setup({ a: tools('x') });
    await manager.update({ servers: [server('a')] });
    await manager.listTools();
    await manager.restart('a');
    expect(manager.states()[0]!.state).toBe('idle');
    await manager.listTools();
    expect(fake.connects.get('a')).toBe(2);
    await expect(manager.restart('nope')).rejects.toMatchObject({ code: 'NOT_FOUND', reason: 'MCP_SERVER_NOT_FOUND' });
  });

  it('close stops every server (MCP-12)', async () => {
    const { manager, fake } = setup({ a: tools('x'), b: tools('y') });
    await manager.update({ servers: [server('a'), server('b')] });
    await manager.listTools();
    expect(fake.live.size).toBe(2);
    await manager.close();
    expect(fake.live.size).toBe(0);
    expect(manager.states()).toEqual([]);
  });

  it('start() while starting joins the attempt in flight', async () => {
    const { manager, fake } = setup({ a: tools('x') });
    await manager.update({ servers: [server('a')] });
    await Promise.all([manager.listTools(), manager.listTools(), manager.connection('a').start()]);
    expect(fake.connects.get('a')).toBe(1);
  });
});
