import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { inMemoryConnector, type FakeServer } from '../testing/in-memory-connector.js';
import { resolvedServer } from '../testing/server-config.js';
import type { ServerConfig } from '../config/server-config.js';
import { CallCancellation } from '../fast-lane/call-signal.js';
import { ServerConnection } from './server-connection.js';
import type { ConnectionEvent } from './connection-deps.js';

const T0 = 1_700_000_000_000;

/** A server with `echo`, `oops` (a tool error: the server answering) and `hang` (never answers). */
const fake = (): FakeServer => ({
  setup(s) {
    s.registerTool('echo', {}, async () => ({ content: [{ type: 'text', text: 'hi' }] }));
    s.registerTool('oops', {}, async () => ({ content: [{ type: 'text', text: 'bad input' }], isError: true }));
    s.registerTool('hang', {}, () => new Promise(() => {}));
  },
});

let connection: ServerConnection | undefined;
afterEach(async () => {
  await connection?.dispose();
  connection = undefined;
});

function setup(server: FakeServer, over: Partial<ServerConfig> = {}) {
  const clock = new FakeClock(T0);
  const memory = inMemoryConnector({ s: server });
  const events: ConnectionEvent[] = [];
  connection = new ServerConnection(resolvedServer('s', over), {
    connector: memory.connector,
    clock,
    workspace: '/ws',
    onEvent: (e) => events.push(e),
  });
  /** What the user sees change, in order: each state (with its error or retry time) and each notice. */
  const seen = () =>
    events.flatMap((e) => {
      if (e.type === 'notice') return [`notice ${e.notice.kind}`];
      if (e.type !== 'status') return [];
      const { state, error, retryAt } = e.status;
      return [[state, error && `(${error})`, retryAt && `retry +${(retryAt - T0) / 1000}s`].filter(Boolean).join(' ')];
    });
  /** Every event, as its type (with the state for a status): one change must be one event. */
  const emitted = () => events.map((e) => (e.type === 'status' ? `status ${e.status.state}${e.toolsChanged ? ' (tools)' : ''}` : e.type));
  return { clock, memory, connection, seen, emitted };
}

describe('ServerConnection: each change of state is one event', () => {
  it('a cold call to a server that fails to start: starting, then failed — one status event each', async () => {
    const { connection, emitted } = setup({ ...fake(), failConnect: true });
    await expect(connection.callTool('echo', {})).rejects.toMatchObject({ code: 'SERVER_UNAVAILABLE' });
    expect(emitted()).toEqual(['status starting', 'failure', 'notice', 'status failed']);
    expect(connection.status()).toMatchObject({ state: 'failed', error: 'MCP server s refused the connection' });
  });

  it('a cold call to a server that wants a sign-in: starting, then needsSignIn — no failure, no notice', async () => {
    const server: FakeServer = { ...fake(), needsSignIn: true };
    const { connection, emitted } = setup(server);
    await expect(connection.callTool('echo', {})).rejects.toMatchObject({ code: 'NEEDS_SIGN_IN' });
    expect(emitted()).toEqual(['status starting', 'status needsSignIn']);
    expect(connection.status()).toMatchObject({ state: 'needsSignIn', error: 'MCP server s needs sign-in: run blitz mcp login s' });
    // The next use tries again, and signed in it connects.
    server.needsSignIn = false;
    expect((await connection.callTool('echo', {})).content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(emitted().slice(2)).toEqual(['status starting', 'status connected (tools)']);
  });

  it('a cold call that works: starting, then connected with its tools — and a server that dies is failed, its tools gone, in one event', async () => {
    const { memory, connection, emitted } = setup(fake());
    await connection.callTool('echo', {});
    expect(emitted()).toEqual(['status starting', 'status connected (tools)']);
    memory.live.get('s')!.kill();
    await expect.poll(() => connection.status().state).toBe('failed');
    expect(emitted().slice(2)).toEqual(['failure', 'notice', 'status failed (tools)']);
    expect(connection.status()).toMatchObject({ error: 'MCP server s exited with code 1', tools: [] });
  });
});

describe('ServerConnection: the refresh timer lives in the running state', () => {
  /** A server that adds a tool when told to: the SDK then sends `tools/list_changed`. */
  function growing() {
    let grow!: () => void;
    const server: FakeServer = {
      setup(s) {
        s.registerTool('echo', {}, async () => ({ content: [{ type: 'text', text: 'hi' }] }));
        grow = () => s.registerTool('more', {}, async () => ({ content: [] }));
      },
    };
    return { server, grow: () => grow() };
  }

  it('a list_changed is relisted once the burst is over, while running', async () => {
    const { server, grow } = growing();
    const { clock, connection } = setup(server);
    await connection.start();
    // The look after initialize (the fake declares listChanged).
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(200);
    grow();
    await expect.poll(() => clock.pendingTimers()).toBe(1);
    clock.advance(199);
    expect(connection.currentTools().map((t) => t.name)).toEqual(['echo']);
    clock.advance(1);
    await expect.poll(() => connection.currentTools().map((t) => t.name)).toEqual(['echo', 'more']);
  });

  it.each([
    ['stopped', (c: ServerConnection) => c.stop()],
    [
      'the process died',
      async (c: ServerConnection, kill: () => void) => {
        kill();
        await expect.poll(() => c.status().state).toBe('failed');
      },
    ],
  ])('a pending refresh is cleared when the state leaves running (%s)', async (_how, leave) => {
    const { server, grow } = growing();
    const { clock, memory, connection } = setup(server);
    await connection.start();
    clock.advance(200);
    grow();
    await expect.poll(() => clock.pendingTimers()).toBe(1);
    await leave(connection, () => memory.live.get('s')!.kill());
    expect(clock.pendingTimers()).toBe(0);
    clock.advance(1_000);
    expect(memory.connects.get('s')).toBe(1);
  });
});

describe('ServerConnection: the breaker admits each use once', () => {
  it('a cold call is admitted once, with its start; a warm call once', async () => {
    const { connection } = setup(fake());
    await connection.callTool('echo', {});
    expect(connection.breaker.admitted).toBe(1);
    await connection.callTool('echo', {});
    expect(connection.breaker.admitted).toBe(2);
  });

  it('a list the server offers no capability for admits nothing once running, and a cold one only its start', async () => {
    const { connection } = setup(fake());
    expect(await connection.listPrompts()).toEqual([]);
    expect(connection.breaker.admitted).toBe(1);
    expect(await connection.listResources()).toEqual([]);
    expect(connection.breaker.admitted).toBe(1);
  });

  it('a cold call after a pause is the trial, admitted once: it recovers the server and runs', async () => {
    const server: FakeServer = { ...fake(), failConnect: true };
    const { clock, connection, seen } = setup(server);
    await expect(connection.start()).rejects.toMatchObject({ code: 'SERVER_UNAVAILABLE' });
    await expect(connection.start()).rejects.toMatchObject({ code: 'SERVER_UNAVAILABLE' });
    expect(connection.breaker.admitted).toBe(2);
    server.failConnect = false;
    clock.advance(15_000);
    // The daemon's own trial start took the pause's end; a call joins it.
    const result = await connection.callTool('echo', {});
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(connection.breaker.admitted).toBe(3);
    expect(seen().slice(-3)).toEqual(['starting', 'notice recovered', 'connected']);
  });
});

describe('ServerConnection: the shown state follows the last outcome', () => {
  it('a timed-out call shows the server failed with the reason until a call succeeds; a tool error is no failure', async () => {
    const { connection, seen } = setup(fake(), { timeoutSeconds: 0.2 });
    await connection.start();
    expect((await connection.callTool('oops', {})).isError).toBe(true);
    expect(connection.status()).toMatchObject({ state: 'connected' });

    await expect(connection.callTool('hang', {})).rejects.toMatchObject({ code: 'TIMEOUT' });
    const timedOut = connection.status().error;
    expect(timedOut).toMatch(/^MCP tool hang timed out after /);
    expect(connection.status()).toMatchObject({ state: 'failed', tools: ['echo', 'oops', 'hang'] });

    // The server answering, even with a tool error, is the success that clears it.
    expect((await connection.callTool('oops', {})).isError).toBe(true);
    expect(connection.status()).toMatchObject({ state: 'connected' });
    expect(seen()).toEqual(['starting', 'connected', 'notice failed', `failed (${timedOut})`, 'notice recovered', 'connected']);
  });
});

describe('ServerConnection: a cancelled call', () => {
  // The in-memory link has no direct calls: this is the SDK client's path, given the CallSignal's AbortSignal.
  it('a call whose CallSignal aborts is cancelled at the server, rejects as cancelled, and is no failure', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let heard!: (reason: unknown) => void;
    const cancelledAtServer = new Promise<unknown>((resolve) => (heard = resolve));
    const { connection } = setup({
      setup(s) {
        s.registerTool('wait', {}, (extra) => {
          extra.signal.addEventListener('abort', () => heard(extra.signal.reason));
          started();
          return new Promise(() => {});
        });
      },
    });
    await connection.start();
    const cancel = new CallCancellation();
    const call = connection.callTool('wait', {}, { signal: cancel });
    await running;
    cancel.abort('the user gave up');
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await cancelledAtServer).toBe('the user gave up');
    expect(connection.status()).toMatchObject({ state: 'connected' });
  });
});

describe('ServerConnection: when a pause ends the connection makes the trial itself', () => {
  it('pause → trial start fails → paused again for twice as long (silently) → trial start works → recovered, with no call from anyone', async () => {
    const server: FakeServer = { ...fake(), failConnect: true };
    const { clock, memory, connection, seen } = setup(server);
    await expect(connection.start()).rejects.toMatchObject({ code: 'SERVER_UNAVAILABLE' });
    await expect(connection.start()).rejects.toMatchObject({ code: 'SERVER_UNAVAILABLE' });
    expect(memory.connects.get('s')).toBe(2);
    expect(connection.status()).toMatchObject({ state: 'paused', retryAt: T0 + 15_000 });

    clock.advance(14_999);
    expect(memory.connects.get('s')).toBe(2);
    clock.advance(1);
    await expect.poll(() => connection.status().retryAt).toBe(T0 + 15_000 + 30_000);
    expect(memory.connects.get('s')).toBe(3);

    server.failConnect = false;
    clock.advance(29_999);
    expect(memory.connects.get('s')).toBe(3);
    clock.advance(1);
    await expect.poll(() => connection.status().state).toBe('connected');
    expect(memory.connects.get('s')).toBe(4);

    const refused = '(MCP server s refused the connection)';
    expect(seen()).toEqual([
      'starting',
      'notice failed',
      `failed ${refused}`,
      'starting',
      'notice paused',
      `paused ${refused} retry +15s`,
      // The pause is over: the daemon starts it, as a trial…
      'starting',
      // …which fails: paused again, 30 s, and no second "paused" notice.
      `paused ${refused} retry +45s`,
      'starting',
      'notice recovered',
      'connected',
    ]);
  });

  it('a trial start that meets a sign-in ends the pause: needs sign-in, not "retrying now" for good', async () => {
    const server: FakeServer = { ...fake(), failConnect: true };
    const { clock, connection } = setup(server);
    await expect(connection.start()).rejects.toMatchObject({ code: 'SERVER_UNAVAILABLE' });
    await expect(connection.start()).rejects.toMatchObject({ code: 'SERVER_UNAVAILABLE' });
    expect(connection.status()).toMatchObject({ state: 'paused' });

    // Back, but its sign-in was lost meanwhile: the daemon's trial meets the 401.
    server.failConnect = false;
    server.needsSignIn = true;
    clock.advance(15_000);
    await expect.poll(() => connection.status().state).toBe('needsSignIn');
    // The breaker is closed again: the next start is tried, not refused as a trial in flight.
    await expect(connection.start()).rejects.toMatchObject({ code: 'NEEDS_SIGN_IN' });
    server.needsSignIn = false;
    await connection.start();
    expect(connection.status()).toMatchObject({ state: 'connected' });
  });

  it('a live server is pinged when its pause ends, and recovers without a call', async () => {
    const { clock, memory, connection, seen } = setup(fake(), { timeoutSeconds: 0.2 });
    await connection.start();
    await expect(connection.callTool('hang', {})).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(connection.callTool('hang', {})).rejects.toMatchObject({ code: 'TIMEOUT' });
    const reason = connection.status().error;
    expect(connection.status()).toMatchObject({ state: 'paused', retryAt: T0 + 15_000 });

    clock.advance(15_000);
    await expect.poll(() => connection.status().state).toBe('connected');
    // The same process: a ping, not a restart.
    expect(memory.connects.get('s')).toBe(1);
    expect(seen()).toEqual([
      'starting',
      'connected',
      'notice failed',
      `failed (${reason})`,
      'notice paused',
      `paused (${reason}) retry +15s`,
      `paused (${reason})`,
      'notice recovered',
      'connected',
    ]);
  });

  it('a disposed connection makes no trial', async () => {
    const { clock, memory, connection } = setup({ ...fake(), failConnect: true });
    await connection.start().catch(() => undefined);
    await connection.start().catch(() => undefined);
    await connection.dispose();
    clock.advance(60_000);
    await Promise.resolve();
    expect(memory.connects.get('s')).toBe(2);
  });
});

describe('ServerConnection: a listing of no tools', () => {
  it('from a server offering the tools capability is a warning in its status, not an error; a tool listed later clears it', async () => {
    let shown!: () => void;
    const { clock, connection } = setup({
      setup(s) {
        // Registered and disabled: the server offers the tools capability and lists none.
        const only = s.registerTool('later', {}, async () => ({ content: [] }));
        only.disable();
        shown = () => only.enable();
      },
    });
    expect(await connection.tools()).toEqual([]);
    expect(connection.status()).toMatchObject({
      state: 'connected',
      tools: [],
      warnings: ['lists no tools, though it offers the tools capability (tools/list answered an empty list)'],
    });
    expect(connection.status().error).toBeUndefined();
    // The look after initialize (the fake declares listChanged) lists none again.
    clock.advance(200);
    shown();
    await expect.poll(() => clock.pendingTimers()).toBe(1);
    clock.advance(200);
    await expect.poll(() => connection.status().tools).toEqual(['later']);
    expect(connection.status().warnings).toEqual([]);
  });

  it('from a server with tools is no warning', async () => {
    const { connection } = setup(fake());
    await connection.tools();
    expect(connection.status().warnings).toEqual([]);
  });
});
