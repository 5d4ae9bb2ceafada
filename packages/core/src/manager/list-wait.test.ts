import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { inMemoryConnector, type FakeServer } from '../testing/in-memory-connector.js';
import { resolvedServer as server } from '../testing/server-config.js';
import { MAIN_AGENT } from '../catalog/agent-may-use.js';
import { Manager } from './manager.js';
import type { ManagerEvent } from './manager-event.js';

// A client's listing waits at most `waitMs` ([hub] list_wait_ms) for servers still starting.

function tools(...names: string[]): FakeServer {
  return {
    setup(s: McpServer) {
      for (const name of names) s.registerTool(name, {}, async () => ({ content: [{ type: 'text', text: name }] }));
    },
  };
}

function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

let manager: Manager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
});

function setup(fakes: Record<string, FakeServer>) {
  const clock = new FakeClock();
  const fake = inMemoryConnector(fakes);
  const events: ManagerEvent[] = [];
  const waiters: Array<() => void> = [];
  manager = new Manager({
    workspace: '/ws',
    connector: fake.connector,
    clock,
    onEvent: (e) => {
      events.push(e);
      for (const w of waiters.splice(0)) w();
    },
  });
  /** Resolves once `test` holds, checked after each manager event. */
  const until = async (test: () => boolean): Promise<void> => {
    while (!test()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { manager, fake, events, clock, until };
}

const names = (entries: ReadonlyArray<{ exposedName: string }>) => entries.map((e) => e.exposedName);
const WAIT = { waitMs: 5_000 };

describe('a listing bounded by waitMs', () => {
  it('answers once waitMs has passed with the servers ready by then; a slow server joins later, with the status event that tells clients (list_changed)', async () => {
    const slow = gate();
    const { manager, events, clock, until } = setup({ quick: tools('echo'), slow: { ...tools('later'), gate: slow.promise } });
    await manager.update({ servers: [server('quick'), server('slow')] });
    let answered = false;
    const listing = manager.listTools(MAIN_AGENT, WAIT).finally(() => (answered = true));
    await until(() => manager.connection('quick').ready);
    clock.advance(4_999);
    await Promise.resolve();
    expect(answered).toBe(false);
    clock.advance(1);
    expect(names(await listing)).toEqual(['echo']);

    const before = events.length;
    slow.open();
    await until(() => manager.connection('slow').ready);
    expect(events.slice(before)).toContainEqual({ type: 'status', status: expect.objectContaining({ name: 'slow', state: 'connected' }) });
    expect(names(manager.catalog().list())).toEqual(['echo', 'later']);
  });

  it('answers as soon as every server is ready or failed, without waiting out waitMs', async () => {
    const { manager } = setup({ a: tools('echo'), broken: { ...tools('x'), failConnect: true } });
    await manager.update({ servers: [server('a'), server('broken')] });
    expect(names(await manager.listTools(MAIN_AGENT, WAIT))).toEqual(['echo']);
  });

  it('does not wait for, nor start, a server whose start failed less than a pause ago; after the pause it is asked again', async () => {
    const flaky: FakeServer = { ...tools('flaky_tool'), failConnect: true };
    const { manager, fake, events, clock } = setup({ a: tools('echo'), flaky });
    await manager.update({ servers: [server('a'), server('flaky')] });
    expect(names(await manager.listTools(MAIN_AGENT, WAIT))).toEqual(['echo']);
    // The failed start is a notice (MCP-33).
    expect(events).toContainEqual({ type: 'notice', notice: expect.objectContaining({ server: 'flaky', kind: 'failed' }) });

    // Were it asked now, it would hang: the listing answers with no time passing.
    const hang = gate();
    flaky.failConnect = false;
    flaky.gate = hang.promise;
    expect(names(await manager.listTools(MAIN_AGENT, WAIT))).toEqual(['echo']);
    expect(fake.connects.get('flaky')).toBe(1);

    clock.advance(15_000);
    const listing = manager.listTools(MAIN_AGENT, WAIT);
    await Promise.resolve();
    expect(fake.connects.get('flaky')).toBe(2);
    clock.advance(5_000);
    expect(names(await listing)).toEqual(['echo']);
    hang.open();
  });

  it('without waitMs a listing still waits for every server (a call to a tool not yet listed)', async () => {
    const slow = gate();
    const { manager, until } = setup({ slow: { ...tools('later'), gate: slow.promise } });
    await manager.update({ servers: [server('slow')] });
    const listing = manager.listTools();
    slow.open();
    await until(() => manager.connection('slow').ready);
    expect(names(await listing)).toEqual(['later']);
  });

  it('prompts and resources are listed the same way: the slow server is left out until it is ready', async () => {
    const slow = gate();
    const withPrompt = (name: string): FakeServer => ({ setup: (s) => void s.registerPrompt(name, {}, () => ({ messages: [] })) });
    const { manager, clock, until } = setup({ quick: withPrompt('hello'), slow: { ...withPrompt('later'), gate: slow.promise } });
    await manager.update({ servers: [server('quick'), server('slow')] });
    const listing = manager.lists.listPrompts(MAIN_AGENT, WAIT);
    await until(() => manager.connection('quick').ready);
    clock.advance(5_000);
    expect((await listing).map((p) => p.exposedName)).toEqual(['hello']);
    slow.open();
    await until(() => manager.connection('slow').ready);
    expect((await manager.lists.listPrompts(MAIN_AGENT, WAIT)).map((p) => p.exposedName)).toEqual(['hello', 'later']);
  });
});
