import { describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { CSRF_HEADER, PageSessions, SESSION_COOKIE } from '../settings-page/page-sessions.js';
import { errorAnswer } from '../wire/error-answer.js';
import { RequestGuard } from './request-guard.js';

const TOKEN = 'tok-123';
const request = (headers: Record<string, string>) => ({ headers });
const auth = { authorization: `Bearer ${TOKEN}` };

function outcome(headers: Record<string, string>): string {
  try {
    new RequestGuard(TOKEN).guard(request(headers), 4000);
    return 'ok';
  } catch (err) {
    const { status, body } = errorAnswer(err);
    return `${status} ${body.reason}`;
  }
}

describe('RequestGuard.guard', () => {
  it.each([
    ['127.0.0.1 with the token', { host: '127.0.0.1:4000', ...auth }, 'ok'],
    ['localhost with the token', { host: 'localhost:4000', ...auth }, 'ok'],
    ['a same-origin page', { host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4000', ...auth }, 'ok'],
    ['no token', { host: '127.0.0.1:4000' }, '401 BAD_TOKEN'],
    ['a wrong token', { host: '127.0.0.1:4000', authorization: 'Bearer nope' }, '401 BAD_TOKEN'],
    ['a token of another length', { host: '127.0.0.1:4000', authorization: `Bearer ${TOKEN}x` }, '401 BAD_TOKEN'],
    ['another scheme', { host: '127.0.0.1:4000', authorization: `Basic ${TOKEN}` }, '401 BAD_TOKEN'],
    ['a rebinding host', { host: 'evil.example:4000', ...auth }, '403 FOREIGN_HOST'],
    ['another port', { host: '127.0.0.1:4001', ...auth }, '403 FOREIGN_HOST'],
    ['no host', { ...auth }, '403 FOREIGN_HOST'],
    ['a foreign origin', { host: '127.0.0.1:4000', origin: 'https://evil.example', ...auth }, '403 FOREIGN_ORIGIN'],
    ['a null origin', { host: '127.0.0.1:4000', origin: 'null', ...auth }, '403 FOREIGN_ORIGIN'],
  ])('%s', (_, headers, expected) => {
    expect(outcome(headers)).toBe(expected);
  });
});

describe('RequestGuard', () => {
  it('two daemons in one process (tests run several) each check their own token and port, asked in turn', () => {
    const a = new RequestGuard('tok-a');
    const b = new RequestGuard('tok-b');
    const head = (port: number, token: string) => request({ host: `127.0.0.1:${port}`, authorization: `Bearer ${token}` });
    for (let i = 0; i < 2; i++) {
      expect(() => a.guard(head(4000, 'tok-a'), 4000)).not.toThrow();
      expect(() => b.guard(head(5000, 'tok-b'), 5000)).not.toThrow();
      expect(() => a.guard(head(4000, 'tok-b'), 4000)).toThrow(/bearer token/);
      expect(() => b.guard(head(4000, 'tok-b'), 5000)).toThrow(/is not this daemon/);
    }
  });
});

describe('RequestGuard.authorize', () => {
  const sessions = new PageSessions(new FakeClock());
  const page = sessions.redeem(sessions.issueCode().code)!;
  const cookie = sessions.cookieFor(page).split(';')[0]!;
  const host = '127.0.0.1:4000';

  function caller(method: string, headers: Record<string, string>, opts: { open?: boolean } = {}): string {
    try {
      return new RequestGuard(TOKEN).authorize({ method, headers }, 4000, sessions, opts).kind;
    } catch (err) {
      const { status, body } = errorAnswer(err);
      return `${status} ${body.reason}`;
    }
  }

  it.each([
    ['the token', 'POST', { host, ...auth }, 'token'],
    ['a wrong token, even with a page cookie', 'GET', { host, authorization: 'Bearer nope', cookie }, '401 BAD_TOKEN'],
    ["the page's cookie, reading", 'GET', { host, cookie }, 'page'],
    ["the page's cookie and its CSRF header, changing", 'POST', { host, cookie, [CSRF_HEADER]: page.csrf }, 'page'],
    ["the page's cookie without its CSRF header, changing", 'POST', { host, cookie }, '403 BAD_CSRF_TOKEN'],
    ["the page's cookie with another CSRF header, changing", 'DELETE', { host, cookie, [CSRF_HEADER]: 'forged' }, '403 BAD_CSRF_TOKEN'],
    ['an unknown cookie', 'GET', { host, cookie: `${SESSION_COOKIE}=forged` }, '401 BAD_TOKEN'],
    ['nothing', 'GET', { host }, '401 BAD_TOKEN'],
    ['a foreign host, before any cookie is read', 'GET', { host: 'evil.example:4000', cookie }, '403 FOREIGN_HOST'],
  ])('%s: %s', (_what, method, headers, expected) => {
    expect(caller(method, headers)).toBe(expected);
  });

  it('lets an open route through without credentials, but never a foreign host', () => {
    expect(caller('GET', { host }, { open: true })).toBe('open');
    expect(caller('GET', { host: 'evil.example:4000' }, { open: true })).toBe('403 FOREIGN_HOST');
  });
});
