import { describe, expect, it } from 'vitest';
import { judgeRedirect, parsePastedRedirect } from './redirect-params.js';

describe('parsePastedRedirect', () => {
  it.each([
    ['the whole address', 'http://127.0.0.1:4567/callback?code=abc&state=xyz', { code: 'abc', state: 'xyz' }],
    [
      'the whole address with iss',
      'http://127.0.0.1:4567/callback?code=abc&state=xyz&iss=https%3A%2F%2Fauth.example.com',
      { code: 'abc', state: 'xyz', iss: 'https://auth.example.com' },
    ],
    ['the address with spaces around', '  http://127.0.0.1:4567/callback?code=abc&state=xyz \n', { code: 'abc', state: 'xyz' }],
    ['just the query', '?code=abc&state=xyz', { code: 'abc', state: 'xyz' }],
    ['code#state', 'abc#xyz', { code: 'abc', state: 'xyz' }],
    [
      'an error redirect',
      'http://127.0.0.1:1/callback?error=access_denied&error_description=no&state=xyz',
      { error: 'access_denied', errorDescription: 'no', state: 'xyz' },
    ],
  ])('reads %s', (_name, text, expected) => {
    expect(parsePastedRedirect(text)).toEqual(expected);
  });

  it.each([
    ['nothing', '   '],
    ['a bare word', 'hello'],
    ['a sentence', 'my code#is this'],
    ['a dangling hash', 'abc#'],
  ])('refuses %s', (_name, text) => {
    expect(parsePastedRedirect(text)).toBeUndefined();
  });
});

describe('judgeRedirect', () => {
  const ISSUER = 'https://auth.example.com';
  const expected = (state: string, issRequired = false) => ({ state, issuer: ISSUER, issRequired });

  it('takes the code of this attempt', () => {
    expect(judgeRedirect({ code: 'abc', state: 's1' }, expected('s1'))).toEqual({ kind: 'code', code: 'abc' });
  });

  describe('RFC 9207 iss', () => {
    it('takes a code whose iss is the issuer, required or not', () => {
      for (const required of [true, false]) {
        expect(judgeRedirect({ code: 'abc', state: 's1', iss: ISSUER }, expected('s1', required))).toEqual({ kind: 'code', code: 'abc' });
      }
    });

    it('refuses an answer without iss where the metadata says it is always sent', () => {
      expect(judgeRedirect({ code: 'abc', state: 's1' }, expected('s1', true))).toEqual({
        kind: 'wrongIssuer',
        missing: true,
        message: `the answer carries no iss, which authorization server ${ISSUER} says it always sends (RFC 9207); it may come from another server, so its code is not used`,
      });
    });

    it.each([
      ['another issuer', 'https://evil.example.com'],
      ['a trailing slash (no normalisation)', `${ISSUER}/`],
      ['other letter case', 'https://AUTH.example.com'],
      ['the default port spelled out', 'https://auth.example.com:443'],
    ])('refuses an iss that is %s, advertised or not, and an error answer too', (_name, iss) => {
      for (const required of [true, false]) {
        expect(judgeRedirect({ code: 'abc', state: 's1', iss }, expected('s1', required))).toMatchObject({
          kind: 'wrongIssuer',
          missing: false,
          message: expect.stringContaining(`comes from issuer ${JSON.stringify(iss)}, not from "${ISSUER}"`),
        });
      }
      expect(judgeRedirect({ error: 'access_denied', state: 's1', iss }, expected('s1'))).toMatchObject({ kind: 'wrongIssuer' });
    });

    it('ignores iss on an answer from another attempt (the state decides first)', () => {
      expect(judgeRedirect({ code: 'abc', state: 's0', iss: 'https://evil.example.com' }, expected('s1', true))).toMatchObject({
        kind: 'refused',
      });
    });
  });

  it('refuses an address from another attempt, or one without state', () => {
    expect(judgeRedirect({ code: 'abc', state: 's0' }, expected('s1'))).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining('another sign-in attempt'),
    });
    expect(judgeRedirect({ code: 'abc' }, expected('s1'))).toMatchObject({ kind: 'refused', message: expect.stringContaining('no state') });
  });

  it('ends the sign-in when this attempt was denied', () => {
    expect(judgeRedirect({ error: 'access_denied', errorDescription: 'user said no', state: 's1' }, expected('s1'))).toEqual({
      kind: 'denied',
      message: 'the authorization server refused the sign-in: access_denied (user said no)',
    });
  });
});
