import { describe, expect, it } from 'vitest';
import { judgeRedirect, parsePastedRedirect } from './redirect-params.js';

describe('parsePastedRedirect', () => {
  it.each([
    ['the whole address', 'http://127.0.0.1:4567/callback?code=abc&state=xyz', { code: 'abc', state: 'xyz' }],
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
  it('takes the code of this attempt', () => {
    expect(judgeRedirect({ code: 'abc', state: 's1' }, 's1')).toEqual({ kind: 'code', code: 'abc' });
  });

  it('refuses an address from another attempt, or one without state', () => {
    expect(judgeRedirect({ code: 'abc', state: 's0' }, 's1')).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining('another sign-in attempt'),
    });
    expect(judgeRedirect({ code: 'abc' }, 's1')).toMatchObject({ kind: 'refused', message: expect.stringContaining('no state') });
  });

  it('ends the sign-in when this attempt was denied', () => {
    expect(judgeRedirect({ error: 'access_denied', errorDescription: 'user said no', state: 's1' }, 's1')).toEqual({
      kind: 'denied',
      message: 'the authorization server refused the sign-in: access_denied (user said no)',
    });
  });
});
