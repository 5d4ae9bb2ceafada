import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { firstDifference } from './first-difference.js';

describe('firstDifference', () => {
  it.each([
    ['equal scalars', 1, 1],
    ['NaN', NaN, NaN],
    ['tables in another key order', { a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }],
    ['an empty table and no table', { mcp: {} }, {}],
    ['equal TOML dates', parse('d = 1979-05-27T07:32:00Z')['d'], parse('d = 1979-05-27T07:32:00Z')['d']],
  ])('finds none between %s', (_, a, b) => {
    expect(firstDifference(a, b)).toBeUndefined();
  });

  it.each([
    [
      'a changed value',
      { mcp: { servers: [{ name: 'a' }] } },
      { mcp: { servers: [{ name: 'b' }] } },
      'mcp.servers[0].name: expected "a", got "b"',
    ],
    ['a missing table', { x: { env: { K: 'v' } } }, { x: {} }, 'x.env: expected {"K":"v"}, got nothing'],
    ['an extra key', { a: 1 }, { a: 1, b: true }, 'b: expected nothing, got true'],
    ['a shorter array', { a: [1, 2] }, { a: [1] }, 'a: expected 2 items, got 1'],
    ['an integer turned string', { p: 1 }, { p: '1' }, 'p: expected 1, got "1"'],
    ['a table turned array', { t: {} }, { t: [] }, 't: expected {}, got []'],
    ['a whole document', 1, 2, 'the document: expected 1, got 2'],
    [
      'a local date-time and an offset one',
      parse('d = 1979-05-27T07:32:00')['d'],
      parse('d = 1979-05-27T07:32:00Z')['d'],
      'the document: expected TomlDate:1979-05-27T07:32:00.000, got TomlDate:1979-05-27T07:32:00.000Z',
    ],
  ])('describes %s', (_, a, b, message) => {
    expect(firstDifference(a, b)).toBe(message);
  });
});
