import type { Notice } from '@blitz/client';
import { describe, expect, it } from 'vitest';
import { cleanMessage, noticeNotification, notificationsFor } from './notification-text.js';

const notice = (id: number, kind: Notice['kind'], message = 'why'): Notice => ({
  id,
  time: '2026-11-29T12:00:00.000Z',
  server: 'github',
  kind,
  message,
});

describe('notifications for notices', () => {
  it('name the server and what happened, with the reason below', () => {
    expect(noticeNotification(notice(1, 'failed', 'github failed: spawn npx ENOENT'))).toEqual({
      title: 'Blitz: github failed',
      message: 'github failed: spawn npx ENOENT',
      error: true,
    });
    expect(noticeNotification(notice(2, 'paused')).title).toBe('Blitz: github paused');
    expect(noticeNotification(notice(3, 'recovered')).title).toBe('Blitz: github recovered');
    expect(noticeNotification(notice(4, 'review')).title).toBe('Blitz: github tools held for review');
    // Blitz's own notices (its audit log, its pin file) name no server.
    expect(noticeNotification({ ...notice(5, 'audit'), server: '' }).title).toBe('Blitz: audit log stopped');
  });

  it("say why and what to do in the daemon's words, naming the server only in the title (issue 29.2)", () => {
    const refused: Notice = {
      ...notice(
        4,
        'failed',
        'MCP server remote-docs failed: connection refused at 127.0.0.1:9; is the server running? Start it, or fix its url',
      ),
      server: 'remote-docs',
      causeCode: 'CONNECTION_REFUSED',
      cause: 'connection refused at 127.0.0.1:9',
      remedy: 'is the server running? Start it, or fix its url',
    };
    expect(noticeNotification(refused)).toEqual({
      title: 'Blitz: remote-docs failed',
      message: 'connection refused at 127.0.0.1:9; is the server running? Start it, or fix its url',
      error: true,
    });
    // A recovery is no error: the normal icon.
    expect(noticeNotification(notice(5, 'recovered'))).not.toHaveProperty('error');
  });

  it('keep the reason short, on one line, with no bearer token', () => {
    expect(cleanMessage('a\n\tb\u0007 Authorization: Bearer abc.def')).toBe('a b Authorization: Bearer ***');
    expect(cleanMessage('Bearer ***')).toBe('Bearer ***');
    const long = cleanMessage('x'.repeat(500));
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
    expect(cleanMessage('  ')).toBe('no details');
  });

  it('never flood: past four in one poll, the rest are summed up', () => {
    expect(notificationsFor([1, 2, 3, 4].map((i) => notice(i, 'failed')))).toHaveLength(4);
    const many = notificationsFor([1, 2, 3, 4, 5, 6].map((i) => notice(i, 'failed')));
    expect(many).toHaveLength(4);
    expect(many[3]).toEqual({ title: 'Blitz', message: '3 more server notices: see blitz mcp list' });
  });
});
