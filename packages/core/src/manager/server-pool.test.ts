import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { inMemoryConnector, type FakeServer } from '../testing/in-memory-connector.js';
import { resolvedServer } from '../testing/server-config.js';
import { Manager } from './manager.js';
import type { ManagerEvent } from './manager-event.js';
import { callByName } from '../testing/call-by-name.js';
import { ServerPool, type PoolEvent } from './server-pool.js';

function tools(...names: string[]): FakeServer {
  return {
    setup(s: McpServer) {
      for (const name of names) s.registerTool(name, {}, async () => ({ content: [{ type: 'text', text: name }] }));
    },
  };
}

const shared = (name: string, over = {}) => resolvedServer(name, { share: true, ...over });

const managers: Manager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

function setup(fakes: Record<string, FakeServer>) {
  const fake = inMemoryConnector(fakes);
  const clock = new FakeClock();
  const poolEvents: PoolEvent[] = [];
  const pool = new ServerPool({ connector: fake.connector, clock, home: '/home/u', onEvent: (event) => poolEvents.push(event) });
  const sharedOnes = () => pool.list().filter((e) => e.shared);
  const events = new Map<string, ManagerEvent[]>();
  const open = (workspace: string) => {
    const list: ManagerEvent[] = [];
    events.set(workspace, list);
    const manager = new Manager({ workspace, connector: fake.connector, clock, pool, onEvent: (e) => list.push(e) });
    managers.push(manager);
    return manager;
  };
  return { fake, pool, sharedOnes, poolEvents, events, open, clock };
}

const pidOf = (m: Manager, name: string) => m.states().find((s) => s.name === name)?.pid;

describe('ServerPool', () => {
  it('one connection serves every workspace for a shared server; a server not shared runs once per workspace', async () => {
    const { fake, pool, sharedOnes, open } = setup({ mem: tools('remember'), fs: tools('read') });
    const a = open('/a');
    const b = open('/b');
    await a.update({ servers: [shared('mem'), resolvedServer('fs')] });
    await b.update({ servers: [shared('mem'), resolvedServer('fs')] });
    expect((await a.listTools()).map((e) => e.exposedName)).toEqual(['remember', 'read']);
    expect((await b.listTools()).map((e) => e.exposedName)).toEqual(['remember', 'read']);
    expect(Object.fromEntries(fake.connects)).toEqual({ mem: 1, fs: 2 });
    expect(pidOf(a, 'mem')).toBe(pidOf(b, 'mem'));
    expect(pidOf(a, 'fs')).not.toBe(pidOf(b, 'fs'));
    expect(a.isShared('mem')).toBe(true);
    expect(a.isShared('fs')).toBe(false);
    expect(sharedOnes().map((e) => [e.connection.name, e.workspaces])).toEqual([['mem', ['/a', '/b']]]);
    // Each workspace's own copy of a server not shared is in the pool too, by its workspace.
    expect(
      pool
        .list()
        .filter((e) => !e.shared)
        .map((e) => [e.connection.name, e.workspaces]),
    ).toEqual([
      ['fs', ['/a']],
      ['fs', ['/b']],
    ]);
    expect((await callByName(b, 'remember', {})).content).toEqual([{ type: 'text', text: 'remember' }]);
  });

  it('lives while any workspace uses it and stops when the last one leaves; the next user starts a fresh one', async () => {
    const { fake, pool, open } = setup({ mem: tools('remember') });
    const a = open('/a');
    const b = open('/b');
    await a.update({ servers: [shared('mem')] });
    await b.update({ servers: [shared('mem')] });
    await a.listTools();
    const connection = a.connection('mem');
    await a.close();
    expect(connection.status().state).toBe('connected');
    expect(fake.live.has('mem')).toBe(true);
    expect(pool.list().map((e) => e.workspaces)).toEqual([['/b']]);
    await b.close();
    expect(fake.live.has('mem')).toBe(false);
    expect(pool.list()).toEqual([]);

    const c = open('/c');
    await c.update({ servers: [shared('mem')] });
    await c.listTools();
    expect(fake.connects.get('mem')).toBe(2);
    expect(c.connection('mem')).not.toBe(connection);
  });

  it('a launch settings change makes another shared server: each workspace moves as it applies it, and the old one stops with its last user', async () => {
    const { fake, pool, sharedOnes, open } = setup({ mem: tools('remember') });
    const a = open('/a');
    const b = open('/b');
    await a.update({ servers: [shared('mem')] });
    await b.update({ servers: [shared('mem')] });
    await b.listTools();
    const old = b.connection('mem');
    const moved = { transport: { kind: 'stdio' as const, command: 'mem', args: ['--v2'], env: {} } };
    await a.update({ servers: [shared('mem', moved)] });
    expect(old.status().state).toBe('connected');
    expect(pool.list().map((e) => [e.connection.config.transport, e.workspaces])).toEqual([
      [{ kind: 'stdio', command: 'mem', args: [], env: {} }, ['/b']],
      [moved.transport, ['/a']],
    ]);
    await b.update({ servers: [shared('mem', moved)] });
    expect(old.status().state).toBe('idle');
    expect(a.connection('mem')).toBe(b.connection('mem'));
    await a.listTools();
    expect(fake.connects.get('mem')).toBe(2);

    // A policy change (issue 26.1) is the same shared server: it keeps running for both.
    const running = a.connection('mem');
    await a.update({ servers: [shared('mem', { ...moved, timeoutSeconds: 10, autoApprove: true })] });
    await b.update({ servers: [shared('mem', { ...moved, timeoutSeconds: 10, autoApprove: true })] });
    expect(a.connection('mem')).toBe(running);
    expect(b.connection('mem')).toBe(running);
    expect(running.status().state).toBe('connected');
    expect(running.config).toMatchObject({ timeoutSeconds: 10, autoApprove: true });
    expect(fake.connects.get('mem')).toBe(2);

    // Unshared, each workspace has its own again and the shared one is gone.
    await a.update({ servers: [resolvedServer('mem')] });
    await b.update({ servers: [resolvedServer('mem')] });
    expect(sharedOnes()).toEqual([]);
    expect(a.connection('mem')).not.toBe(b.connection('mem'));
  });

  it('a restart from one workspace restarts the shared server for all; both hear it as a catalog change', async () => {
    const { fake, open, events } = setup({ mem: tools('remember') });
    const a = open('/a');
    const b = open('/b');
    await a.update({ servers: [shared('mem')] });
    await b.update({ servers: [shared('mem')] });
    await a.listTools();
    events.get('/b')!.length = 0;
    await a.restart('mem');
    expect(b.states()[0]!.state).toBe('idle');
    expect(events.get('/b')!.some((e) => e.type === 'catalog')).toBe(true);
    expect(b.catalog().list()).toEqual([]);
    await b.listTools();
    expect(fake.connects.get('mem')).toBe(2);
    expect(a.states()[0]!.state).toBe('connected');
  });

  it('its state, failures and notices are reported once by the pool with the workspaces using it; the managers hear only catalog changes', async () => {
    const flaky: FakeServer = { ...tools('remember'), failConnect: true };
    const { open, poolEvents, events } = setup({ mem: flaky });
    const a = open('/a');
    const b = open('/b');
    await a.update({ servers: [shared('mem')] });
    await b.update({ servers: [shared('mem')] });
    await a.listTools();
    const notices = poolEvents.flatMap((p) => (p.event.type === 'notice' ? [[p.event.notice.message, p.workspaces]] : []));
    expect(notices).toEqual([['MCP server mem failed: refused the connection', ['/a', '/b']]]);
    expect(poolEvents.filter((p) => p.event.type === 'failure')).toHaveLength(1);
    for (const list of events.values()) {
      expect(list.filter((e) => e.type === 'notice' || e.type === 'failure' || e.type === 'status')).toEqual([]);
      expect(list.some((e) => e.type === 'catalog')).toBe(true);
    }
    // One breaker: the second failure, from the other workspace, pauses it for both.
    await b.listTools();
    expect(a.states()[0]!.state).toBe('paused');
    expect(poolEvents.flatMap((p) => (p.event.type === 'notice' ? [p.event.notice.kind] : []))).toEqual(['failed', 'paused']);
  });

  it("a server's own list_changed reaches every workspace using it", async () => {
    let addTool: (() => void) | undefined;
    const { open, clock } = setup({
      mem: {
        setup(s) {
          s.registerTool('first', {}, async () => ({ content: [] }));
          addTool = () => s.registerTool('second', {}, async () => ({ content: [] }));
        },
      },
    });
    const a = open('/a');
    const b = open('/b');
    await a.update({ servers: [shared('mem')] });
    await b.update({ servers: [shared('mem')] });
    await a.listTools();
    clock.advance(1000);
    addTool!();
    await expect.poll(() => clock.pendingTimers()).toBeGreaterThan(0);
    clock.advance(200);
    await expect
      .poll(() =>
        b
          .catalog()
          .list()
          .map((e) => e.exposedName),
      )
      .toEqual(['first', 'second']);
    expect(
      a
        .catalog()
        .list()
        .map((e) => e.exposedName),
    ).toEqual(['first', 'second']);
  });

  it("catalog warnings are each workspace's own: a clash in one workspace is not shown in another", async () => {
    const { open } = setup({ mem: tools('search'), other: tools('search') });
    const a = open('/a');
    const b = open('/b');
    await a.update({ servers: [resolvedServer('other'), shared('mem')] });
    await b.update({ servers: [shared('mem')] });
    await a.listTools();
    await b.listTools();
    expect(a.states()[1]!.warnings).toEqual([expect.stringContaining('server "other" already offers "search"')]);
    expect(b.states()[0]!.warnings).toEqual([]);
  });

  it('without a pool, share changes nothing: the manager runs the server itself', async () => {
    const fake = inMemoryConnector({ mem: tools('remember') });
    const a = new Manager({ workspace: '/a', connector: fake.connector, clock: new FakeClock() });
    const b = new Manager({ workspace: '/b', connector: fake.connector, clock: new FakeClock() });
    managers.push(a, b);
    await a.update({ servers: [shared('mem')] });
    await b.update({ servers: [shared('mem')] });
    await a.listTools();
    await b.listTools();
    expect(fake.connects.get('mem')).toBe(2);
    expect(a.isShared('mem')).toBe(false);
  });
});
