import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { RequestGuard } from '../http/request-guard.js';
import { errorAnswer } from '../wire/error-answer.js';
import { CODE_TTL_MS, CSRF_HEADER, PageSessions, SESSION_COOKIE, SESSION_IDLE_MS } from './page-sessions.js';

const cookieOf = (setCookie: string) => setCookie.split(';')[0]!;

describe('PageSessions', () => {
  it('trades a code once for a session; the code is spent', () => {
    const sessions = new PageSessions(new FakeClock());
    const { code } = sessions.issueCode();
    const session = sessions.redeem(code);
    expect(session).toBeDefined();
    expect(sessions.redeem(code)).toBeUndefined();
    expect(sessions.fromCookie(cookieOf(sessions.cookieFor(session!)))).toBe(session);
  });

  it('refuses a code after its minute, and a code it never issued', () => {
    const clock = new FakeClock();
    const sessions = new PageSessions(clock);
    const late = sessions.issueCode();
    const inTime = sessions.issueCode();
    clock.advance(CODE_TTL_MS - 1);
    expect(sessions.redeem(inTime.code)).toBeDefined();
    clock.advance(1);
    expect(sessions.redeem(late.code)).toBeUndefined();
    expect(sessions.redeem('made-up')).toBeUndefined();
    expect(sessions.redeem('')).toBeUndefined();
  });

  it('gives each session its own CSRF token, compared exactly', () => {
    const sessions = new PageSessions(new FakeClock());
    const a = sessions.redeem(sessions.issueCode().code)!;
    const b = sessions.redeem(sessions.issueCode().code)!;
    expect(a.csrf).not.toBe(b.csrf);
    expect(sessions.csrfMatches(a, a.csrf)).toBe(true);
    expect(sessions.csrfMatches(a, b.csrf)).toBe(false);
    expect(sessions.csrfMatches(a, `${a.csrf}x`)).toBe(false);
    expect(sessions.csrfMatches(a, undefined)).toBe(false);
    expect(sessions.csrfMatches(a, [a.csrf])).toBe(false);
  });

  it('ends a session left alone for its idle time; use keeps it alive', () => {
    const clock = new FakeClock();
    const sessions = new PageSessions(clock);
    const cookie = cookieOf(sessions.cookieFor(sessions.redeem(sessions.issueCode().code)!));
    clock.advance(SESSION_IDLE_MS - 1);
    expect(sessions.fromCookie(cookie)).toBeDefined();
    clock.advance(SESSION_IDLE_MS - 1);
    expect(sessions.fromCookie(`other=1; ${cookie}`)).toBeDefined();
    clock.advance(SESSION_IDLE_MS);
    expect(sessions.fromCookie(cookie)).toBeUndefined();
  });

  it('outlives the daemon in its file (0600, no cookie value in it), within its idle time', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-sessions-'));
    try {
      const file = path.join(dir, 'state', 'page-sessions.json');
      const clock = new FakeClock();
      const before = new PageSessions(clock, { file });
      const kept = before.redeem(before.issueCode().code)!;
      const ending = before.redeem(before.issueCode().code)!;
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(file, 'utf8')).not.toContain(kept.id);
      clock.advance(SESSION_IDLE_MS - 1);
      expect(before.fromCookie(cookieOf(before.cookieFor(kept)))).toBeDefined();
      // The next daemon, a moment later: the session used since is there, with its CSRF token; the other one has expired.
      clock.advance(1);
      const after = new PageSessions(clock, { file });
      const again = after.fromCookie(cookieOf(before.cookieFor(kept)));
      expect(again?.csrf).toBe(kept.csrf);
      expect(after.csrfMatches(again!, kept.csrf)).toBe(true);
      expect(after.fromCookie(cookieOf(before.cookieFor(ending)))).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts with no sessions when their file is not JSON, and says so', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-sessions-'));
    try {
      const file = path.join(dir, 'page-sessions.json');
      fs.writeFileSync(file, '{not json');
      const warnings: string[] = [];
      const sessions = new PageSessions(new FakeClock(), { file, warn: (m) => warnings.push(m) });
      expect(warnings).toEqual([expect.stringContaining(file)]);
      sessions.redeem(sessions.issueCode().code);
      expect((JSON.parse(fs.readFileSync(file, 'utf8')) as { sessions: unknown[] }).sessions).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sets a cookie scripts cannot read and other sites cannot send', () => {
    const sessions = new PageSessions(new FakeClock());
    const header = sessions.cookieFor(sessions.redeem(sessions.issueCode().code)!);
    expect(header).toMatch(new RegExp(`^${SESSION_COOKIE}=[\\w-]{43}; Path=/; HttpOnly; SameSite=Strict$`));
  });
});

describe('RequestGuard.authorize', () => {
  const TOKEN = 'tok-123';
  const sessions = new PageSessions(new FakeClock());
  const session = sessions.redeem(sessions.issueCode().code)!;
  const cookie = cookieOf(sessions.cookieFor(session));
  const host = { host: '127.0.0.1:4000' };

  function outcome(method: string, headers: Record<string, string>): string {
    try {
      return new RequestGuard(TOKEN).authorize({ method, headers }, 4000, sessions).kind;
    } catch (err) {
      const { status, body } = errorAnswer(err);
      return `${status} ${body.reason}`;
    }
  }

  it.each([
    ['the bearer token', 'POST', { ...host, authorization: `Bearer ${TOKEN}` }, 'token'],
    ['a wrong token, even with a cookie', 'GET', { ...host, authorization: 'Bearer nope', cookie }, '401 BAD_TOKEN'],
    ['a page read by cookie', 'GET', { ...host, cookie }, 'page'],
    ['a page write with its CSRF token', 'PUT', { ...host, cookie, origin: 'http://127.0.0.1:4000', [CSRF_HEADER]: session.csrf }, 'page'],
    ['a page write without the CSRF token', 'POST', { ...host, cookie }, '403 BAD_CSRF_TOKEN'],
    ['a page write with a wrong CSRF token', 'DELETE', { ...host, cookie, [CSRF_HEADER]: 'guess' }, '403 BAD_CSRF_TOKEN'],
    ['no cookie and no token', 'GET', { ...host }, '401 BAD_TOKEN'],
    ['an unknown cookie', 'GET', { ...host, cookie: `${SESSION_COOKIE}=forged` }, '401 BAD_TOKEN'],
    [
      'a foreign origin with the cookie and the CSRF token',
      'POST',
      { ...host, cookie, origin: 'https://evil.example', [CSRF_HEADER]: session.csrf },
      '403 FOREIGN_ORIGIN',
    ],
    ['a rebinding host with the cookie', 'GET', { host: 'evil.example:4000', cookie }, '403 FOREIGN_HOST'],
  ])('%s', (_, method, headers, expected) => {
    expect(outcome(method, headers as Record<string, string>)).toBe(expected);
  });
});
