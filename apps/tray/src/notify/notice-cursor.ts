import type { Notice } from '@blitz/client';
import type { ToldServers } from './notification-policy.js';

/** Which daemon run notice ids belong to: a new daemon restarts them at 1. */
export interface DaemonIdentity {
  pid: number;
  startedAt: string;
}

/** The last notice the tray has shown, and of which daemon run; kept across tray restarts. */
export interface NoticeCursor {
  daemon: DaemonIdentity;
  lastNoticeId: number;
  /** What each server's notifications last told (`toTell`), so a restart does not tell it again. */
  told?: ToldServers;
}

/**
 * Notices of a daemon the tray has not seen before are shown only while fresh: a tray
 * started long after the daemon should not replay an afternoon of failures.
 */
export const FRESH_NOTICE_MS = 10 * 60_000;

export function sameDaemon(a: DaemonIdentity | undefined, b: DaemonIdentity): boolean {
  return a !== undefined && a.pid === b.pid && a.startedAt === b.startedAt;
}

/** The `?after=` to poll with: where this daemon's notices were left, or undefined for all it kept. */
export function afterFor(saved: NoticeCursor | undefined, daemon: DaemonIdentity): number | undefined {
  return saved && sameDaemon(saved.daemon, daemon) ? saved.lastNoticeId : undefined;
}

/**
 * Which of the polled notices to show, and the cursor to save: each notice id is shown
 * once, also across tray restarts, because the cursor is saved with the daemon it counts for.
 */
export function takeNotices(
  saved: NoticeCursor | undefined,
  daemon: DaemonIdentity,
  notices: readonly Notice[],
  now: number,
): { show: Notice[]; cursor: NoticeCursor } {
  const known = saved && sameDaemon(saved.daemon, daemon) ? saved.lastNoticeId : undefined;
  const show = notices.filter((n) => (known === undefined ? isFresh(n, now) : n.id > known));
  const lastNoticeId = Math.max(known ?? 0, ...notices.map((n) => n.id));
  return { show, cursor: { daemon: { pid: daemon.pid, startedAt: daemon.startedAt }, lastNoticeId } };
}

function isFresh(notice: Notice, now: number): boolean {
  const time = Date.parse(notice.time);
  return !Number.isNaN(time) && now - time <= FRESH_NOTICE_MS;
}

export function sameCursor(a: NoticeCursor | undefined, b: NoticeCursor): boolean {
  return (
    a !== undefined &&
    sameDaemon(a.daemon, b.daemon) &&
    a.lastNoticeId === b.lastNoticeId &&
    JSON.stringify(a.told ?? {}) === JSON.stringify(b.told ?? {})
  );
}
