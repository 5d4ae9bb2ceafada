import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { CatalogCache } from '../catalog-cache/catalog-cache.js';
import { catalogCacheKey } from '../catalog-cache/catalog-cache-key.js';
import { inMemoryConnector, type FakeServer } from '../testing/in-memory-connector.js';
import { resolvedServer as server, serverConfig } from '../testing/server-config.js';
import { Manager } from './manager.js';
import type { ManagerEvent } from './manager-event.js';
import { HOLD_MS, QUIET_MS } from './start-soon.js';

// The catalog cache in a workspace's manager (issue 18, cold start): a server not up yet whose
// launch config is cached is listed from the cache at once, and the real listing replaces it.

function tools(...names: string[]): FakeServer {
  return {
    setup(s: McpServer) {
      for (const name of names) s.registerTool(name, {}, async () => ({ content: [{ type: 'text', text: `${name} ran` }] }));
      s.registerPrompt('greet', {}, () => ({ messages: [] }));
    },
  };
}

function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** A server whose start fails, held back until `up.open()`. */
function failsOnceOpened(): { server: FakeServer; up: { open(): void } } {
  const up = gate();
  return {
    server: {
      gate: up.promise,
      setup() {
        throw new Error('cannot start today');
      },
    },
    up,
  };
}

let dir: string;
let file: string;
let managers: Manager[];
/** Every test's caches: their writes are waited for before the folder goes, or a late one makes it again. */
let caches: CatalogCache[];
/** Gates a test never opens: opened at the end, so the servers held by them can stop. */
let held: Array<{ open(): void }>;
function never(): Promise<void> {
  const g = gate();
  held.push(g);
  return g.promise;
}
beforeEach(() => {
  held = [];
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-cached-catalogs-'));
  file = path.join(dir, 'catalog-cache.json');
  managers = [];
  caches = [];
});
afterEach(async () => {
  for (const g of held) g.open();
  await Promise.all(managers.map((m) => m.close()));
  await Promise.all(caches.map((c) => c.flush()));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A manager on a fresh read of the cache file: what a daemon start sees. */
function start(fakes: Record<string, FakeServer>, enabled = true) {
  const clock = new FakeClock();
  const warnings: string[] = [];
  const cache = new CatalogCache({ file, clock, warn: (m) => warnings.push(m) });
  caches.push(cache);
  const fake = inMemoryConnector(fakes);
  const events: ManagerEvent[] = [];
  const waiters: Array<() => void> = [];
  const manager = new Manager({
    workspace: '/ws',
    connector: fake.connector,
    clock,
    catalogCache: () => (enabled ? cache : undefined),
    onEvent: (e) => {
      events.push(e);
      for (const w of waiters.splice(0)) w();
    },
  });
  managers.push(manager);
  const until = async (test: () => boolean): Promise<void> => {
    while (!test()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  /** A listing that waits for nothing ([hub] list_wait_ms = 0): the clock moves past its bound. */
  const listNow = async () => {
    const listing = manager.listTools(undefined, { waitMs: 0 });
    clock.advance(1);
    return names(await listing);
  };
  /** The pause after the listings that starts the servers the cache answered for (start-soon.ts). */
  const pause = () => clock.advance(QUIET_MS);
  return { manager, cache, fake, events, until, warnings, listNow, clock, pause };
}

/** A first daemon run: every server starts and lists, and the cache is written. */
async function warm(fakes: Record<string, FakeServer>, servers = Object.keys(fakes).map((n) => server(n))): Promise<void> {
  const { manager, cache } = start(fakes);
  await manager.update({ servers });
  await manager.listTools();
  await manager.lists.listPrompts();
  await manager.close();
  await cache.flush();
}

const names = (entries: ReadonlyArray<{ exposedName: string }>) => entries.map((e) => e.exposedName);
// The clock never moves in these tests: a listing that waited for a gated server would never answer.
const WAIT = { waitMs: 5_000 };

describe('a cold start answered from the catalog cache', () => {
  it('lists a cached server at once while it starts, then its real tools replace the cached ones with a catalog change', async () => {
    await warm({ slow: tools('echo', 'old') });
    const up = gate();
    const { manager, until, events, pause } = start({ slow: { ...tools('echo', 'new'), gate: up.promise } });
    await manager.update({ servers: [server('slow')] });

    expect(names(await manager.listTools(undefined, WAIT))).toEqual(['echo', 'old']);
    // Answered first, then started once the listings pause (start-soon.ts): the listing still starts it (MCP-10).
    expect(manager.connection('slow').phase).toBe('idle');
    pause();
    await until(() => manager.connection('slow').phase === 'starting');
    expect((await manager.lists.listPrompts(undefined, WAIT)).map((p) => p.exposedName)).toEqual(['greet']);
    expect(manager.routing.introduced()).toEqual([
      {
        name: 'slow',
        announced: {
          capabilities: expect.objectContaining({ tools: { listChanged: true } }),
          serverInfo: { name: 'slow', version: '1.0.0' },
        },
      },
    ]);

    const before = events.length;
    up.open();
    await until(() => manager.connection('slow').ready);
    expect(events.slice(before).some((e) => e.type === 'status' && e.status.name === 'slow')).toBe(true);
    expect(names(manager.catalog().list())).toEqual(['echo', 'new']);
  });

  it('a cached server whose first start lists what the cache said keeps listsKey (sessions hear no prompts/resources list_changed); other tools, or a restart, change it', async () => {
    await warm({ same: tools('echo'), moved: tools('echo', 'old') });
    const { manager, until, pause } = start({ same: tools('echo'), moved: tools('echo', 'new') });
    await manager.update({ servers: [server('same')] });
    expect(names(await manager.listTools(undefined, WAIT))).toEqual(['echo']);
    const cold = manager.listsKey();
    pause();
    await until(() => manager.connection('same').ready);
    // The catalog was rebuilt from the live listing; its prompts and resources are taken as the cache's.
    expect(names(manager.catalog().list())).toEqual(['echo']);
    expect(manager.listsKey()).toBe(cold);

    await manager.restart('same');
    await manager.listTools(undefined, WAIT);
    pause();
    await until(() => manager.connection('same').ready);
    expect(manager.listsKey()).not.toBe(cold);

    const before = manager.listsKey();
    await manager.update({ servers: [server('same'), server('moved')] });
    expect(manager.listsKey()).not.toBe(before);
    const cached = manager.listsKey();
    await manager.listTools(undefined, WAIT);
    pause();
    await until(() => manager.connection('moved').ready);
    expect(names(manager.catalog().list())).toEqual(['echo', 'new']);
    expect(manager.listsKey()).not.toBe(cached);
  });

  it('starts the cached servers once the listings asking for them pause, at most HOLD_MS after the first', async () => {
    await warm({ a: tools('a1'), b: tools('b1') });
    const { manager, clock, until } = start({ a: { ...tools('a1'), gate: never() }, b: { ...tools('b1'), gate: never() } });
    await manager.update({ servers: [server('a'), server('b')] });
    const phases = () => [manager.connection('a').phase, manager.connection('b').phase];
    const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));
    // initialize, tools/list, prompts/list…: each listing keeps them waiting another QUIET_MS…
    let elapsed = 0;
    while (elapsed + QUIET_MS - 1 < HOLD_MS) {
      await manager.listTools(undefined, WAIT);
      clock.advance(QUIET_MS - 1);
      elapsed += QUIET_MS - 1;
      await macrotask();
      expect(phases()).toEqual(['idle', 'idle']);
    }
    // …but no longer than HOLD_MS after the first.
    await manager.listTools(undefined, WAIT);
    clock.advance(HOLD_MS - elapsed);
    await until(() => phases().every((p) => p === 'starting'));

    // A quiet client: QUIET_MS after its one listing.
    await warm({ c: tools('c1') });
    const quiet = start({ c: { ...tools('c1'), gate: never() } });
    await quiet.manager.update({ servers: [server('c')] });
    expect(await quiet.listNow()).toEqual(['c1']);
    quiet.clock.advance(QUIET_MS - 2);
    await macrotask();
    expect(quiet.manager.connection('c').phase).toBe('idle');
    quiet.clock.advance(1);
    await quiet.until(() => quiet.manager.connection('c').phase === 'starting');
  });

  it('a cached server removed before its start comes is not started', async () => {
    await warm({ slow: tools('echo'), other: tools('x') });
    const { manager, fake, until, pause } = start({ slow: tools('echo'), other: tools('x') });
    await manager.update({ servers: [server('slow'), server('other')] });
    expect(names(await manager.listTools(undefined, WAIT))).toEqual(['echo', 'x']);
    await manager.update({ servers: [server('other')] });
    pause();
    await until(() => manager.connection('other').ready);
    expect([fake.connects.get('slow'), fake.connects.get('other')]).toEqual([undefined, 1]);
  });

  it('a call to a cached tool waits for the server to start, then runs on it', async () => {
    await warm({ slow: tools('echo') });
    const up = gate();
    const { manager } = start({ slow: { ...tools('echo'), gate: up.promise } });
    await manager.update({ servers: [server('slow')] });
    await manager.listTools(undefined, WAIT);
    const tool = await manager.resolveTool('main', 'echo');
    let done = false;
    const call = manager.callTool(tool, {}).finally(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    up.open();
    expect((await call).content).toEqual([{ type: 'text', text: 'echo ran' }]);
  });

  it('the next start writes what the server listed then', async () => {
    await warm({ slow: tools('echo', 'old') });
    const { manager, cache } = start({ slow: tools('echo', 'new') });
    await manager.update({ servers: [server('slow')] });
    await manager.listTools();
    await cache.flush();
    expect(
      new CatalogCache({ file, clock: new FakeClock(), warn: () => undefined })
        .get(catalogCacheKey(serverConfig('slow'), '/ws'))
        ?.tools.map((t) => t.name),
    ).toEqual(['echo', 'new']);
  });

  it('does not answer for a server whose settings changed, a disabled one, or with [hub] catalog_cache off', async () => {
    await warm({ a: tools('a1'), b: tools('b1'), c: tools('c1') });
    const { manager, listNow } = start({
      a: { ...tools('a1'), gate: never() },
      b: { ...tools('b1'), gate: never() },
      c: { ...tools('c1'), gate: never() },
    });
    await manager.update({
      servers: [
        server('a', { transport: { kind: 'stdio', command: 'a', args: ['--changed'], env: {} } }),
        server('b', { disabled: true }),
        server('c'),
      ],
    });
    expect(await listNow()).toEqual(['c1']);

    const off = start({ c: { ...tools('c1'), gate: never() } }, false);
    await off.manager.update({ servers: [server('c')] });
    expect(await off.listNow()).toEqual([]);
  });

  it('a cached server whose start fails leaves the listing, with the catalog event that tells clients', async () => {
    await warm({ broken: tools('gone') });
    const { server: broken, up } = failsOnceOpened();
    const { manager, until, events, pause } = start({ broken });
    await manager.update({ servers: [server('broken')] });
    expect(names(await manager.listTools(undefined, WAIT))).toEqual(['gone']);
    const before = events.length;
    pause();
    up.open();
    await until(() => manager.connection('broken').phase === 'failed');
    // Its status shows no tools before or after (it never ran): the catalog event is the cache's.
    expect(events.slice(before).filter((e) => e.type === 'catalog')).toHaveLength(1);
    expect(names(manager.catalog().list())).toEqual([]);
  });

  it("a cached server paused after repeated failures: a call to a cached tool is refused in the breaker's words (MCP-32)", async () => {
    await warm({ flaky: tools('f') });
    const { server: flaky, up } = failsOnceOpened();
    const { manager, until, pause } = start({ flaky });
    await manager.update({ servers: [server('flaky')] });
    expect(names(await manager.listTools(undefined, WAIT))).toEqual(['f']);
    pause();
    up.open();
    await until(() => manager.connection('flaky').phase === 'failed');
    await manager.listTools();
    expect(manager.states()[0]!.state).toBe('paused');
    await expect(manager.resolveTool('main', 'f')).rejects.toMatchObject({
      code: 'SERVER_UNAVAILABLE',
      message: expect.stringContaining('unavailable after repeated failures'),
    });
  });

  it('forgets a server that asks for a sign-in: the next start does not list it from the cache', async () => {
    await warm({ web: tools('fetch') });
    const first = start({ web: { ...tools('fetch'), needsSignIn: true } });
    await first.manager.update({ servers: [server('web')] });
    await first.manager.listTools(undefined, WAIT);
    first.pause();
    await first.until(() => first.manager.connection('web').phase === 'needsSignIn');
    expect(names(first.manager.catalog().list())).toEqual([]);
    await first.cache.flush();

    const next = start({ web: { ...tools('fetch'), gate: never() } });
    await next.manager.update({ servers: [server('web')] });
    expect(await next.listNow()).toEqual([]);
  });
});
