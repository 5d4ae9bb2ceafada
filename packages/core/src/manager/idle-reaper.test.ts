import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import type { ServerConfig } from '../config/server-config.js';
import { callByName } from '../testing/call-by-name.js';
import { inMemoryConnector, type FakeServer } from '../testing/in-memory-connector.js';
import { resolvedServer } from '../testing/server-config.js';
import { Manager } from './manager.js';
import type { ManagerEvent } from './manager-event.js';
import { ServerPool, type PoolEvent } from './server-pool.js';

/** A server with an `echo` tool, a `wait` tool that answers once `release` is called, and a subscribable resource. */
function server(): FakeServer & { release(): void } {
  let release = () => undefined as void;
  return {
    release: () => release(),
    setup(s: McpServer) {
      s.registerTool('echo', {}, async () => ({ content: [{ type: 'text', text: 'echo' }] }));
      s.registerTool('wait', {}, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return { content: [{ type: 'text', text: 'waited' }] };
      });
      s.registerResource('live', 'live://counter', {}, async (uri) => ({ contents: [{ uri: uri.href, text: '1' }] }));
      s.server.registerCapabilities({ resources: { subscribe: true } });
      s.server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
      s.server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));
    },
  };
}

const managers: Manager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

function setup(hubSeconds: number | undefined, over: Partial<ServerConfig> = {}) {
  const fake = server();
  const memory = inMemoryConnector({ mem: fake });
  const clock = new FakeClock();
  const poolEvents: PoolEvent[] = [];
  const pool = new ServerPool({
    connector: memory.connector,
    clock,
    ...(hubSeconds === undefined ? {} : { idleTimeoutSeconds: () => hubSeconds }),
    onEvent: (event) => poolEvents.push(event),
  });
  const events: ManagerEvent[] = [];
  const manager = new Manager({ workspace: '/w', connector: memory.connector, clock, pool, onEvent: (e) => events.push(e) });
  managers.push(manager);
  const open = async () => {
    await manager.update({ servers: [resolvedServer('mem', over)] });
    return manager;
  };
  const names = async () => (await manager.listTools(undefined, { waitMs: 1_000 })).map((e) => e.exposedName);
  return { fake, memory, clock, poolEvents, events, manager, open, names };
}

const SECOND = 1_000;

describe('idle reaping (issue 32.1)', () => {
  it('stops a server unused for its idle timeout; its tools stay listed and the next call starts it again', async () => {
    const { memory, clock, poolEvents, events, manager, open, names } = setup(60);
    await open();
    expect(await names()).toEqual(['echo', 'wait']);
    const uris = async () => (await manager.lists.listResources(undefined, undefined, { waitMs: 1_000 })).map((r) => r.uri);
    expect(await uris()).toEqual(['live://counter']);
    await callByName(manager, 'echo', {});
    clock.advance(59 * SECOND);
    expect(manager.connection('mem').phase).toBe('connected');
    clock.advance(1 * SECOND);
    expect(manager.states()[0]).toMatchObject({ state: 'idle', reaped: true, tools: [] });
    expect(memory.live.has('mem')).toBe(false);

    // Listed as before, without starting it: with a list wait, without one, and its prompts and resources from memory.
    expect(await names()).toEqual(['echo', 'wait']);
    expect((await manager.listTools()).map((e) => e.exposedName)).toEqual(['echo', 'wait']);
    expect(await uris()).toEqual(['live://counter']);
    expect(
      manager
        .catalog()
        .list()
        .map((e) => e.exposedName),
    ).toEqual(['echo', 'wait']);
    expect(memory.connects.get('mem')).toBe(1);

    // The next call starts it and succeeds; the reap was no failure.
    expect((await callByName(manager, 'echo', {})).content).toEqual([{ type: 'text', text: 'echo' }]);
    expect(memory.connects.get('mem')).toBe(2);
    expect(manager.states()[0]).toMatchObject({ state: 'connected' });
    expect(manager.states()[0]!.reaped).toBeUndefined();
    expect(manager.connection('mem').breaker.status()).toMatchObject({ kind: 'closed' });
    expect(poolEvents.filter((e) => e.event.type === 'notice' || e.event.type === 'failure')).toEqual([]);
    expect(events.filter((e) => e.type === 'notice' || e.type === 'failure')).toEqual([]);
    // The statuses in order: announced, up, reaped, starting again, up.
    const states = poolEvents.flatMap((e) =>
      e.event.type === 'status' ? [`${e.event.status.state}${e.event.status.reaped ? ' reaped' : ''}`] : [],
    );
    expect(states).toEqual(['idle', 'starting', 'connected', 'idle reaped', 'starting', 'connected']);
  });

  it('counts from the end of the last use, and never reaps a server with a call in flight', async () => {
    const { fake, memory, clock, manager, open } = setup(60);
    await open();
    await callByName(manager, 'echo', {});
    clock.advance(50 * SECOND);
    const waiting = callByName(manager, 'wait', {});
    await expect.poll(() => memory.live.has('mem')).toBe(true);
    clock.advance(600 * SECOND);
    expect(manager.connection('mem').phase).toBe('connected');
    fake.release();
    expect((await waiting).content).toEqual([{ type: 'text', text: 'waited' }]);
    clock.advance(59 * SECOND);
    expect(manager.connection('mem').phase).toBe('connected');
    clock.advance(1 * SECOND);
    expect(manager.connection('mem').reaped).toBe(true);
  });

  it('never reaps a server while a session holds a subscription; once it lets go, the countdown starts', async () => {
    const { clock, manager, open } = setup(60);
    await open();
    await manager.routing.subscribe('live://counter', 'session-1');
    clock.advance(3_600 * SECOND);
    expect(manager.connection('mem').phase).toBe('connected');
    await manager.routing.unsubscribe('live://counter', 'session-1');
    clock.advance(60 * SECOND);
    expect(manager.connection('mem').reaped).toBe(true);
  });

  it('takes the server’s own setting over [hub]’s, and 0 never reaps', async () => {
    const never = setup(60, { idleTimeoutSeconds: 0 });
    await never.open();
    await callByName(never.manager, 'echo', {});
    never.clock.advance(86_400 * SECOND);
    expect(never.manager.connection('mem').phase).toBe('connected');

    const own = setup(0, { idleTimeoutSeconds: 5 });
    await own.open();
    await callByName(own.manager, 'echo', {});
    own.clock.advance(5 * SECOND);
    expect(own.manager.connection('mem').reaped).toBe(true);

    const unset = setup(undefined);
    await unset.open();
    await callByName(unset.manager, 'echo', {});
    unset.clock.advance(86_400 * SECOND);
    expect(unset.manager.connection('mem').phase).toBe('connected');
  });
});
