import { describe, expect, it } from 'vitest';
import { JsonBytes, stillMatches } from './json-bytes.js';

describe('JsonBytes', () => {
  it('tags bytes by what they are: equal bytes, equal tag; other bytes, another', () => {
    const a = JsonBytes.of({ servers: [{ name: 's', state: 'connected' }] });
    expect(a.etag).toMatch(/^"[\w-]{27}"$/);
    expect(JsonBytes.of({ servers: [{ name: 's', state: 'connected' }] }).etag).toBe(a.etag);
    expect(JsonBytes.of({ servers: [{ name: 's', state: 'idle' }] }).etag).not.toBe(a.etag);
  });
});

describe('stillMatches (If-None-Match)', () => {
  const tag = '"abc"';
  it.each([
    ['no header', undefined, false],
    ['the tag', '"abc"', true],
    ['another tag', '"abd"', false],
    ['the tag unquoted', 'abc', false],
    ['the tag in a list', '"x", "abc"', true],
    ['the tag weak', 'W/"abc"', true],
    ['any', '*', true],
    ['headers given twice', ['"x"', '"abc"'], true],
  ] as const)('%s', (_, header, expected) => {
    expect(stillMatches(header as string | string[] | undefined, tag)).toBe(expected);
  });
});
