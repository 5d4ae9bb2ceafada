import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, it, vi } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { backoffMs, retryableMethod, retryAfterMs, retryingFetch, type RetryEvent } from './retrying-fetch.js';

type Step = number | { status: number; headers?: Record<string, string> } | Error;

/** A fetch that answers from a script and records what it was asked; our own parameter, not a module mock. */
function scriptedFetch(steps: Step[]) {
  const calls: RequestInit[] = [];
  const fetch: FetchLike = async (_url, init) => {
    calls.push(init ?? {});
    const step = steps.shift() ?? 200;
    if (step instanceof Error) throw step;
    const { status, headers } = typeof step === 'number' ? { status: step, headers: {} } : step;
    return new Response(status === 204 ? null : `{"status":${status}}`, { status, headers });
  };
  return { fetch, calls };
}

function post(method: string | string[], extra: RequestInit = {}): RequestInit {
  const message = (m: string) => ({ jsonrpc: '2.0', id: 1, method: m });
  const body = Array.isArray(method) ? method.map(message) : message(method);
  return { method: 'POST', body: JSON.stringify(body), ...extra };
}

function setup(steps: Step[]) {
  const clock = new FakeClock();
  const script = scriptedFetch(steps);
  const retries: RetryEvent[] = [];
  const fetch = retryingFetch(script.fetch, { clock, onRetry: (e) => retries.push(e) });
  return { clock, fetch, retries, calls: script.calls };
}

/** Waits until the wrapper is sleeping on the clock, then moves time by `ms`. */
async function advanceWhenWaiting(clock: FakeClock, ms: number): Promise<void> {
  await vi.waitFor(() => expect(clock.pendingTimers()).toBe(1));
  clock.advance(ms);
}

describe('retryingFetch', () => {
  it('retries initialize after 503s with 250 ms then 1 s backoff', async () => {
    const { clock, fetch, retries, calls } = setup([503, 502, 200]);
    const response = fetch('http://x/mcp', post('initialize'));
    await advanceWhenWaiting(clock, 250);
    await advanceWhenWaiting(clock, 1000);
    expect((await response).status).toBe(200);
    expect(calls).toHaveLength(3);
    expect(retries).toEqual([
      { method: 'initialize', attempt: 1, delayMs: 250, reason: 'HTTP 503' },
      { method: 'initialize', attempt: 2, delayMs: 1000, reason: 'HTTP 502' },
    ]);
  });

  it('does not send before the wait is over', async () => {
    const { clock, fetch, calls } = setup([503, 200]);
    const response = fetch('http://x/mcp', post('tools/list'));
    await vi.waitFor(() => expect(clock.pendingTimers()).toBe(1));
    clock.advance(249);
    await new Promise((r) => setImmediate(r));
    expect(calls).toHaveLength(1);
    clock.advance(1);
    expect((await response).status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it('gives up after two retries and returns the last answer', async () => {
    const { clock, fetch, calls } = setup([429, 408, 500, 200]);
    const response = fetch('http://x/mcp', post('prompts/list'));
    await advanceWhenWaiting(clock, 250);
    await advanceWhenWaiting(clock, 1000);
    expect((await response).status).toBe(500);
    expect(calls).toHaveLength(3);
  });

  it('honours Retry-After in seconds', async () => {
    const { clock, fetch, retries } = setup([{ status: 503, headers: { 'retry-after': '3' } }, 200]);
    const response = fetch('http://x/mcp', post('resources/list'));
    await advanceWhenWaiting(clock, 3000);
    expect((await response).status).toBe(200);
    expect(retries[0]?.delayMs).toBe(3000);
  });

  it('honours Retry-After as an HTTP date, capped at 10 s', async () => {
    const clock = new FakeClock();
    const in4s = new Date(clock.now() + 4000).toUTCString();
    const { fetch: base } = scriptedFetch([
      { status: 503, headers: { 'retry-after': in4s } },
      { status: 429, headers: { 'retry-after': '3600' } },
      200,
    ]);
    const retries: RetryEvent[] = [];
    const response = retryingFetch(base, { clock, onRetry: (e) => retries.push(e) })('http://x/mcp', post('resources/templates/list'));
    await advanceWhenWaiting(clock, 4000);
    await advanceWhenWaiting(clock, 10_000);
    expect((await response).status).toBe(200);
    expect(retries.map((r) => r.delayMs)).toEqual([4000, 10_000]);
  });

  it('retries network errors, naming the cause', async () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const { clock, fetch, retries } = setup([refused, 200]);
    const response = fetch('http://x/mcp', post('notifications/initialized'));
    await advanceWhenWaiting(clock, 250);
    expect((await response).status).toBe(200);
    expect(retries[0]?.reason).toBe('fetch failed (ECONNREFUSED)');
  });

  it('throws the network error once the retries are used up', async () => {
    const { clock, fetch } = setup([new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed')]);
    const response = fetch('http://x/mcp', post('initialize'));
    const outcome = expect(response).rejects.toThrow('fetch failed');
    await advanceWhenWaiting(clock, 250);
    await advanceWhenWaiting(clock, 1000);
    await outcome;
  });

  it('never replays tools/call', async () => {
    const { fetch, calls } = setup([503, 200]);
    expect((await fetch('http://x/mcp', post('tools/call'))).status).toBe(503);
    expect(calls).toHaveLength(1);
  });

  it('never replays a tools/call failing on the network', async () => {
    const { fetch, calls } = setup([new TypeError('fetch failed')]);
    await expect(fetch('http://x/mcp', post('tools/call'))).rejects.toThrow('fetch failed');
    expect(calls).toHaveLength(1);
  });

  it('does not retry the SSE GET or the session DELETE', async () => {
    const { fetch, calls } = setup([503, 503]);
    expect((await fetch('http://x/mcp', { method: 'GET' })).status).toBe(503);
    expect((await fetch('http://x/mcp', { method: 'DELETE' })).status).toBe(503);
    expect(calls).toHaveLength(2);
  });

  it('stops waiting when the request is aborted', async () => {
    const { clock, fetch, calls } = setup([503, 200]);
    const abort = new AbortController();
    const response = fetch('http://x/mcp', post('initialize', { signal: abort.signal }));
    await vi.waitFor(() => expect(clock.pendingTimers()).toBe(1));
    abort.abort(new Error('closed'));
    await expect(response).rejects.toThrow('closed');
    expect(clock.pendingTimers()).toBe(0);
    expect(calls).toHaveLength(1);
  });
});

describe('retryableMethod', () => {
  it('accepts a batch only if every message may be replayed', () => {
    expect(retryableMethod(post(['tools/list', 'prompts/list']))).toBe('tools/list,prompts/list');
    expect(retryableMethod(post(['tools/list', 'tools/call']))).toBeUndefined();
  });

  it('rejects bodies it cannot read', () => {
    expect(retryableMethod({ method: 'POST', body: 'not json' })).toBeUndefined();
    expect(retryableMethod({ method: 'POST', body: '[]' })).toBeUndefined();
    expect(retryableMethod({ method: 'POST', body: '{"jsonrpc":"2.0","id":1,"result":{}}' })).toBeUndefined();
    expect(retryableMethod(undefined)).toBeUndefined();
  });
});

describe('backoffMs and retryAfterMs', () => {
  it('grows by four and stops at 5 s', () => {
    expect([0, 1, 2, 3].map(backoffMs)).toEqual([250, 1000, 4000, 5000]);
  });

  it('reads seconds and dates, ignores garbage, never goes negative', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('60', now)).toBe(10_000);
  });
});
