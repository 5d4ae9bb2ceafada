import { describe, expect, it } from 'vitest';
import { serverTitle, shortError, wrapText } from './server-title.js';

describe('server titles', () => {
  it('says what needs attention, nothing else', () => {
    const now = 1_000_000;
    const base = { name: 'github', enabled: true, transport: 'stdio' as const };
    expect(serverTitle({ ...base, state: 'connected' }, now)).toBe('github');
    expect(serverTitle({ ...base, state: 'paused', retryAt: new Date(now + 90_500).toISOString() }, now)).toBe('github — paused, retrying in 1m31s');
    expect(serverTitle({ ...base, state: 'paused' }, now)).toBe('github — paused, retrying now');
    expect(serverTitle({ ...base, state: 'failed' }, now)).toBe('github — failed');
    expect(serverTitle({ ...base, state: 'needsSignIn' }, now)).toBe('github — needs sign-in');
  });

  it('keeps an error to its first non-empty line, squeezed and cut', () => {
    expect(shortError('\n  spawn   npx ENOENT \nstack')).toBe('spawn npx ENOENT');
    expect(shortError('x'.repeat(100), 10)).toBe('xxxxxxxxx…');
  });

  it.each<[string, string, number, string[]]>([
    ['fits', 'a b c', 10, ['a b c']],
    ['breaks at spaces', 'one two three four', 9, ['one two', 'three', 'four']],
    ['squeezes white space', ' a \n\t b ', 10, ['a b']],
    ['splits a word longer than a line', 'abcdefghijkl', 5, ['abcde', 'fghij', 'kl']],
    ['a long word after text fills the line first', 'see /a/very/long/path/name', 12, ['see /a/very/', 'long/path/na', 'me']],
    ['empty', '  ', 5, []],
  ])('wrapText: %s', (_name, text, width, lines) => {
    expect(wrapText(text, width)).toEqual(lines);
    expect(lines.every((l) => l.length <= width)).toBe(true);
  });
});
