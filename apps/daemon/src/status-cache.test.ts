import { describe, expect, it } from 'vitest';
import { Redactor, type ConnectionEvent, type ManagerEvent, type ServerStatus } from '@blitz/core';
import type { StatusResponse } from '@blitz/client';
import { changesStatus, StatusCache } from './status-cache.js';

const status = (over: Partial<StatusResponse> = {}): StatusResponse => ({
  version: '1',
  pid: 1,
  servers: [],
  problems: [],
  notices: [],
  lastNoticeId: 0,
  workspaces: 0,
  ...over,
});

/** A cache over a status the test sets, counting what it is asked to build. */
function cacheOver(redactor = new Redactor()) {
  const made = { now: status(), asked: 0 };
  const cache = new StatusCache((after) => {
    made.asked++;
    return { ...made.now, notices: made.now.notices.filter((n) => after === undefined || n.id > after) };
  }, redactor);
  const answer = (after?: number) => JSON.parse(cache.get(after).text) as StatusResponse;
  return { made, cache, answer };
}

const serverStatus: ServerStatus = { name: 's', state: 'connected', tools: [], warnings: [] };
const EVENTS: Array<[ManagerEvent | ConnectionEvent, boolean]> = [
  [{ type: 'status', status: serverStatus }, true],
  [{ type: 'status', status: serverStatus, toolsChanged: false }, true],
  [{ type: 'notice', notice: { server: 's', kind: 'failed', message: 'm', time: 0 } }, true],
  [{ type: 'catalog' }, false],
  [{ type: 'failure', server: 's', reason: 'r' }, false],
  [{ type: 'listChanged', server: 's', list: 'prompts' }, false],
  [{ type: 'log', server: 's', params: { level: 'info', data: 'x' }, during: [] }, false],
  [{ type: 'resourceUpdated', server: 's', uri: 'u', sessions: [] }, false],
  [{ type: 'subscriptionsEnded', server: 's', subscriptions: [] }, false],
];

describe('StatusCache', () => {
  it('builds once between changes, and answers the same bytes', () => {
    const { cache } = cacheOver();
    const first = cache.get(undefined);
    expect(cache.get(undefined)).toBe(first);
    expect(cache.builds).toBe(1);
  });

  it.each(EVENTS)('%j changes the status: %s; the next answer is rebuilt exactly then', (event, changes) => {
    const { made, cache, answer } = cacheOver();
    expect(answer().workspaces).toBe(0);
    made.now = status({ workspaces: 1 });
    cache.heard(event);
    expect(changesStatus(event)).toBe(changes);
    expect(answer().workspaces).toBe(changes ? 1 : 0);
    expect(cache.builds).toBe(changes ? 2 : 1);
  });

  it('a change of settings or workspaces rebuilds the answer of every cursor', () => {
    const { made, cache, answer } = cacheOver();
    answer();
    answer(3);
    made.now = status({ problems: ['settings.toml: bad'] });
    cache.changed();
    expect(answer().problems).toEqual(['settings.toml: bad']);
    expect(answer(3).problems).toEqual(['settings.toml: bad']);
    expect(cache.builds).toBe(4);
  });

  it('keeps one answer per cursor', () => {
    const { made, cache, answer } = cacheOver();
    made.now = status({
      notices: [1, 2, 3].map((id) => ({ id, time: '', server: 's', kind: 'failed', message: `n${id}` })),
      lastNoticeId: 3,
    });
    expect(answer(2).notices.map((n) => n.id)).toEqual([3]);
    expect(answer().notices.map((n) => n.id)).toEqual([1, 2, 3]);
    expect(answer(2).notices.map((n) => n.id)).toEqual([3]);
    expect(cache.builds).toBe(2);
  });

  it('masks secrets when it builds, and builds again once the redactor knows a new one', () => {
    const redactor = new Redactor(['first-secret-1']);
    const { made, cache, answer } = cacheOver(redactor);
    made.now = status({ problems: ['first-secret-1 second-secret-2'] });
    expect(answer().problems).toEqual(['*** second-secret-2']);
    redactor.add('second-secret-2');
    expect(answer().problems).toEqual(['*** ***']);
    expect(cache.builds).toBe(2);
    answer();
    expect(cache.builds).toBe(2);
  });
});
