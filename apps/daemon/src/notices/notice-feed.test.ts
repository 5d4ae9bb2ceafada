import type { Notice } from '@blitz/client';
import { describe, expect, it } from 'vitest';
import { NoticeFeed, type NoticeInput } from './notice-feed.js';

const T0 = Date.UTC(2026, 9, 14, 12, 0, 0);

function input(i: number): NoticeInput {
  return { server: `s${i}`, kind: 'failed', message: `m${i}`, time: T0 + i * 1000 };
}

function feedWith(count: number, limit?: number): NoticeFeed {
  const feed = new NoticeFeed(limit === undefined ? {} : { limit });
  for (let i = 1; i <= count; i++) feed.push(input(i));
  return feed;
}

const ids = (notices: Notice[]) => notices.map((notice) => notice.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('NoticeFeed.after', () => {
  it.each<[string, { pushed: number; limit?: number; after: number | undefined; ids: number[]; lastId: number }]>([
    ['empty feed, no cursor', { pushed: 0, after: undefined, ids: [], lastId: 0 }],
    ['empty feed, cursor 0', { pushed: 0, after: 0, ids: [], lastId: 0 }],
    ['no cursor gives all kept', { pushed: 3, after: undefined, ids: [1, 2, 3], lastId: 3 }],
    ['cursor 0 gives all kept', { pushed: 3, after: 0, ids: [1, 2, 3], lastId: 3 }],
    ['cursor in the middle', { pushed: 5, after: 3, ids: [4, 5], lastId: 5 }],
    ['cursor at the last id', { pushed: 5, after: 5, ids: [], lastId: 5 }],
    ['cursor from an earlier daemon run', { pushed: 2, after: 57, ids: [1, 2], lastId: 2 }],
    ['keeps the last 100', { pushed: 130, after: undefined, ids: range(31, 130), lastId: 130 }],
    ['cursor older than the oldest kept', { pushed: 130, after: 10, ids: range(31, 130), lastId: 130 }],
    ['cursor among the kept', { pushed: 130, after: 127, ids: [128, 129, 130], lastId: 130 }],
    ['a smaller limit', { pushed: 5, limit: 2, after: undefined, ids: [4, 5], lastId: 5 }],
  ])('%s', (_name, c) => {
    const feed = feedWith(c.pushed, c.limit);
    expect(ids(feed.after(c.after))).toEqual(c.ids);
    expect(feed.lastId).toBe(c.lastId);
  });
});

describe('NoticeFeed.push', () => {
  it.each<[string, NoticeInput, Omit<Notice, 'id'>]>([
    [
      'failed',
      { server: 'github', kind: 'failed', message: 'github failed: exited with code 1', time: T0 },
      { time: '2026-10-14T12:00:00.000Z', server: 'github', kind: 'failed', message: 'github failed: exited with code 1' },
    ],
    [
      'paused',
      { server: 'slack', kind: 'paused', message: 'slack paused after 3 failures', time: T0 + 1500 },
      { time: '2026-10-14T12:00:01.500Z', server: 'slack', kind: 'paused', message: 'slack paused after 3 failures' },
    ],
    [
      'recovered',
      { server: 'slack', kind: 'recovered', message: 'slack recovered', time: 0 },
      { time: '1970-01-01T00:00:00.000Z', server: 'slack', kind: 'recovered', message: 'slack recovered' },
    ],
  ])('returns a %s notice as the API shows it', (_name, given, expected) => {
    const feed = new NoticeFeed();
    expect(feed.push(given)).toEqual({ id: 1, ...expected });
    expect(feed.after()).toEqual([{ id: 1, ...expected }]);
  });

  it('gives ids from 1, one more each time', () => {
    const feed = new NoticeFeed();
    expect([1, 2, 3].map((i) => feed.push(input(i)).id)).toEqual([1, 2, 3]);
  });

  it('keeps stored notices safe from callers', () => {
    const feed = feedWith(1);
    const [first] = feed.after();
    expect(Object.isFrozen(first)).toBe(true);
    feed.after().pop();
    expect(ids(feed.after())).toEqual([1]);
  });

  it('spends no id on an invalid time', () => {
    const feed = new NoticeFeed();
    expect(() => feed.push({ ...input(1), time: Number.NaN })).toThrow(RangeError);
    expect(feed.lastId).toBe(0);
    expect(feed.push(input(2)).id).toBe(1);
  });
});

describe('NoticeFeed.subscribe', () => {
  it('delivers each notice pushed while subscribed, in order, and none after unsubscribing', () => {
    const feed = feedWith(1);
    const seen: number[] = [];
    const unsubscribe = feed.subscribe((notice) => seen.push(notice.id));
    feed.push(input(2));
    feed.push(input(3));
    unsubscribe();
    feed.push(input(4));
    expect(seen).toEqual([2, 3]);
  });

  it('treats each subscription of the same function on its own', () => {
    const feed = new NoticeFeed();
    const seen: number[] = [];
    const listener = (notice: Notice) => seen.push(notice.id);
    const first = feed.subscribe(listener);
    feed.subscribe(listener);
    feed.push(input(1));
    first();
    feed.push(input(2));
    expect(seen).toEqual([1, 1, 2]);
  });

  it('lets a listener unsubscribe while it is being called', () => {
    const feed = new NoticeFeed();
    const seen: string[] = [];
    const unsubscribe = feed.subscribe(() => {
      seen.push('a');
      unsubscribe();
    });
    feed.subscribe(() => seen.push('b'));
    feed.push(input(1));
    feed.push(input(2));
    expect(seen).toEqual(['a', 'b', 'b']);
  });

  it('still stores the notice and calls every listener when one throws, then reports it', () => {
    const errors: unknown[] = [];
    const feed = new NoticeFeed({ onError: (error) => errors.push(error) });
    const seen: number[] = [];
    feed.subscribe(() => {
      throw new Error('listener bug');
    });
    feed.subscribe((notice) => seen.push(notice.id));
    expect(feed.push(input(1)).id).toBe(1);
    expect(seen).toEqual([1]);
    expect(errors).toEqual([new Error('listener bug')]);
    expect(ids(feed.after())).toEqual([1]);
  });

  it('rethrows a listener error from push when no onError is given', () => {
    const feed = new NoticeFeed();
    const seen: number[] = [];
    feed.subscribe(() => {
      throw new Error('listener bug');
    });
    feed.subscribe((notice) => seen.push(notice.id));
    expect(() => feed.push(input(1))).toThrow('listener bug');
    expect(seen).toEqual([1]);
    expect(feed.lastId).toBe(1);
  });
});

describe('NoticeFeed: one entry per event, failures resolved by a fix (issue 29.3)', () => {
  const failed = (workspace: string, time = T0): NoticeInput => ({
    server: 'docs',
    kind: 'failed',
    message: 'MCP server docs failed: connection refused at 127.0.0.1:9; is the server running? Start it, or fix its url',
    causeCode: 'CONNECTION_REFUSED',
    cause: 'connection refused at 127.0.0.1:9',
    remedy: 'is the server running? Start it, or fix its url',
    time,
    workspaces: [workspace],
  });

  it('names every workspace on the one entry of an event that each copy of the server reported', () => {
    const feed = new NoticeFeed();
    const heard: Notice[] = [];
    feed.subscribe((n) => heard.push(n));
    feed.push(failed('/a'));
    feed.push(failed('/b', T0 + 10));
    feed.push(failed('/a', T0 + 20));
    expect(feed.after()).toEqual([expect.objectContaining({ id: 1, server: 'docs', kind: 'failed', workspaces: ['/a', '/b'] })]);
    expect(heard.map((n) => n.id)).toEqual([1]);
    expect(feed.lastId).toBe(1);
  });

  it('a different cause, or a failure after a fix, is a new entry', () => {
    const feed = new NoticeFeed();
    feed.push(failed('/a'));
    feed.push({ ...failed('/b'), cause: 'it did not answer initialize within 30s', causeCode: 'START_TIMEOUT', message: 'm' });
    expect(ids(feed.after())).toEqual([1, 2]);
    feed.resolve('docs', T0 + 1_000);
    feed.push(failed('/a', T0 + 2_000));
    expect(ids(feed.after())).toEqual([1, 2, 3]);
  });

  it("a recovery or a fix marks the server's older failures resolved, with the time; other servers' stay", () => {
    const feed = new NoticeFeed();
    feed.push(failed('/a'));
    feed.push({ ...failed('/a'), kind: 'paused', message: 'paused' });
    feed.push({ ...failed('/a'), server: 'other' });
    feed.push({ server: 'docs', kind: 'recovered', message: 'MCP server docs recovered', time: T0 + 5_000, workspaces: ['/a'] });
    const [fail, pause, other, recovered] = feed.after();
    expect(fail!.resolved).toBe(new Date(T0 + 5_000).toISOString());
    expect(pause!.resolved).toBe(new Date(T0 + 5_000).toISOString());
    expect(other!.resolved).toBeUndefined();
    expect(recovered).not.toHaveProperty('resolved');
    expect(feed.resolve('other', T0 + 6_000)).toBe(1);
    expect(feed.resolve('other', T0 + 7_000)).toBe(0);
  });
});
