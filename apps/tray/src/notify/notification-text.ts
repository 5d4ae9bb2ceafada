import type { Notice, NoticeKind } from '@blitz/client';
import { truncate } from '../menu/server-title.js';
import type { ToTell } from './notification-policy.js';

export interface DesktopNotification {
  title: string;
  message: string;
  /** A failure: shown with the error icon. */
  error?: boolean;
}

/** Long enough for a reason, short enough for a notification bubble. */
export const MESSAGE_CHARS = 200;

/** A settings problem is told whole, but a notification is still no place for a wall of text. */
export const PROBLEM_MESSAGE_CHARS = 1_000;

/** More notices than this in one poll are summed up in one last notification. */
export const MAX_NOTIFICATIONS_PER_POLL = 4;

/**
 * A notice as a desktop notification: the server's name and what happened in the title, the
 * cause and what to do below, in the daemon's words (issue 29.2). A daemon from before them
 * sends only the message.
 */
export function noticeNotification(notice: Notice, word: string = kindWord(notice.kind)): DesktopNotification {
  const body =
    notice.cause === undefined ? notice.message : notice.remedy === undefined ? notice.cause : `${notice.cause}; ${notice.remedy}`;
  // A notice of Blitz's own (its audit log, its pin file) names no server.
  const error = notice.kind === 'failed' || notice.kind === 'paused';
  return { title: `Blitz: ${[notice.server, word].filter(Boolean).join(' ')}`, message: cleanMessage(body), ...(error ? { error } : {}) };
}

/** One notification a notice, but never a flood: past the limit, one more says how many were left out. */
export function notificationsFor(notices: readonly (Notice | ToTell)[]): DesktopNotification[] {
  const one = (n: Notice | ToTell) => ('notice' in n ? noticeNotification(n.notice, n.word) : noticeNotification(n));
  if (notices.length <= MAX_NOTIFICATIONS_PER_POLL) return notices.map(one);
  const shown = notices.slice(0, MAX_NOTIFICATIONS_PER_POLL - 1);
  const rest = notices.length - shown.length;
  return [...shown.map(one), { title: 'Blitz', message: `${rest} more server notices: see blitz mcp list` }];
}

/** The settings edit that was not applied, whole: the menu may have had to cut it. */
export function problemsNotification(problems: readonly string[]): DesktopNotification {
  return { title: 'Blitz: settings not applied', message: cleanMessage(problems.join('; '), PROBLEM_MESSAGE_CHARS) };
}

function kindWord(kind: NoticeKind): string {
  switch (kind) {
    case 'failed':
      return 'failed';
    case 'paused':
      return 'paused';
    case 'recovered':
      return 'recovered';
    case 'review':
      return 'tools held for review';
    case 'audit':
      return 'audit log stopped';
    case 'sandbox':
      return 'sandbox unavailable';
    default: {
      const _exhaustive: never = kind;
      return _exhaustive;
    }
  }
}

/**
 * The daemon redacts notices already; this is a second line of defence for a bubble the
 * whole room may see: no control characters, no bearer token, and never a wall of text.
 */
export function cleanMessage(message: string, max = MESSAGE_CHARS): string {
  const flat = message
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\b(Bearer|Basic)\s+(?!\*\*\*)\S+/gi, '$1 ***')
    .replace(/\s+/g, ' ')
    .trim();
  return truncate(flat || 'no details', max);
}
