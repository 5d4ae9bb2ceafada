import type { Notice } from '@blitz/client';
import { describe, expect, it } from 'vitest';
import { afterFor, FRESH_NOTICE_MS, takeNotices } from './notice-cursor.js';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const daemon = { pid: 10, startedAt: '2026-11-29T11:00:00.000Z' };
const other = { pid: 11, startedAt: '2026-11-29T11:30:00.000Z' };
const notice = (id: number, ago = 0): Notice => ({
  id,
  time: new Date(NOW - ago).toISOString(),
  server: 's',
  kind: 'failed',
  message: 'm',
});

describe('the notice cursor', () => {
  it('asks for what follows the saved id of the same daemon, everything from another', () => {
    expect(afterFor(undefined, daemon)).toBeUndefined();
    expect(afterFor({ daemon, lastNoticeId: 7 }, daemon)).toBe(7);
    expect(afterFor({ daemon, lastNoticeId: 7 }, other)).toBeUndefined();
  });

  it('shows each id once for the same daemon', () => {
    const { show, cursor } = takeNotices({ daemon, lastNoticeId: 2 }, daemon, [notice(2), notice(3), notice(4)], NOW);
    expect(show.map((n) => n.id)).toEqual([3, 4]);
    expect(cursor).toEqual({ daemon, lastNoticeId: 4 });
  });

  it('a new daemon restarts ids at 1: its fresh notices are new, stale ones are skipped', () => {
    const { show, cursor } = takeNotices({ daemon, lastNoticeId: 9 }, other, [notice(1, FRESH_NOTICE_MS + 1), notice(2, 1_000)], NOW);
    expect(show.map((n) => n.id)).toEqual([2]);
    expect(cursor).toEqual({ daemon: other, lastNoticeId: 2 });
  });

  it('keeps the cursor when nothing new came', () => {
    expect(takeNotices({ daemon, lastNoticeId: 5 }, daemon, [], NOW)).toEqual({ show: [], cursor: { daemon, lastNoticeId: 5 } });
    expect(takeNotices(undefined, daemon, [], NOW).cursor).toEqual({ daemon, lastNoticeId: 0 });
  });
});
