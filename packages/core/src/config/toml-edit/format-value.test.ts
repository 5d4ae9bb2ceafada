import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { isBlitzError } from '../../errors/blitz-error.js';
import { firstDifference } from './first-difference.js';
import { formatKey, formatNumber, formatString, formatValue } from './format-value.js';

/** What smol-toml reads back from `v = <formatted>`. */
const roundTrip = (value: unknown): unknown => parse(`v = ${formatValue(value, 'v')}\n`)['v'];

const allControls = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('') + '\u007f';

describe('formatString', () => {
  it.each([
    ['empty', ''],
    ['plain', 'npx'],
    ['double quotes', 'say "hi"'],
    ['backslashes', 'C:\\Program Files\\x.exe'],
    ['a backslash-u that is text', '\\u0041 stays six characters'],
    ['newlines and tabs', 'a\nb\r\nc\td'],
    ['every control character', allControls],
    ['env reference', '${API_KEY}'],
    ['TOML syntax inside', '[[mcp.servers]] # name = "x" """ \'\'\''],
    ['non-ASCII', 'é ü ß 日本語'],
    ['astral plane', '😀 𝄞'],
    ['line and paragraph separators', 'a\u2028b\u2029c'],
    ['a byte-order mark', '\uFEFFx'],
    ['only quotes', '""""""'],
    ['trailing backslash', 'ends with \\'],
  ])('round-trips %s', (_, value) => {
    expect(roundTrip(value)).toBe(value);
  });

  it('stays on one line', () => {
    expect(formatString(allControls)).not.toMatch(/[\n\r]/);
  });

  it('escapes control characters as TOML 1.0 escapes', () => {
    expect(formatString('\u0000\u001b\u007f\b\f')).toBe('"\\u0000\\u001B\\u007F\\b\\f"');
  });

  it('writes non-ASCII text as it is', () => {
    expect(formatString('é😀')).toBe('"é😀"');
  });

  it('refuses a lone surrogate, which UTF-8 cannot hold', () => {
    expect(() => formatString('a\uD800b')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => formatString('\uDC00')).toThrow(/surrogate/);
  });
});

describe('formatNumber', () => {
  it.each([
    0,
    1,
    -1,
    42,
    300,
    1.5,
    -0.25,
    0.1,
    1e-7,
    1e21,
    -1e300,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    2 ** 53 + 2,
    2 ** 60,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Infinity,
    -Infinity,
    NaN,
  ])('round-trips %d', (value) => {
    expect(Object.is(roundTrip(value), value)).toBe(true);
  });

  it.each([
    [30, '30'],
    [1.5, '1.5'],
    [2 ** 60, '1152921504606847000.0'],
    [Infinity, 'inf'],
    [NaN, 'nan'],
  ])('writes %d as %s', (value, text) => {
    expect(formatNumber(value)).toBe(text);
  });
});

describe('formatValue', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['an empty array', []],
    ['a string array', ['-y', '@scope/pkg', 'with "quotes"']],
    ['a mixed array', ['a', 1, true]],
    ['nested arrays', [['a'], [], ['b', 'c']]],
    ['an empty table', {}],
    ['a record', { API_KEY: '${API_KEY}', PATH: '/usr/bin:/bin' }],
    ['keys that need quotes', { 'with space': '1', 'dotted.key': '2', '': '3', é: '4', '"': '5', '#': '6' }],
    ['nested tables and arrays', { client_id: 'x', scopes: ['a', 'b'], callback_port: 8123, nested: { deep: true } }],
    ['an array of tables', [{ a: '1' }, { b: 2 }]],
  ])('round-trips %s', (_, value) => {
    expect(firstDifference(value, roundTrip(value))).toBeUndefined();
  });

  it('writes records as inline tables', () => {
    expect(formatValue({ API_KEY: '${API_KEY}', 'MY KEY': 'v' }, 'env')).toBe('{ API_KEY = "${API_KEY}", "MY KEY" = "v" }');
    expect(formatValue({}, 'env')).toBe('{}');
  });

  it('leaves out undefined fields of a table', () => {
    expect(formatValue({ a: 'x', b: undefined }, 'env')).toBe('{ a = "x" }');
  });

  it('accepts the null-prototype tables smol-toml returns', () => {
    const table = parse('t = { a = "b" }')['t'];
    expect(formatValue(table, 't')).toBe('{ a = "b" }');
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    ['a function', () => 1],
    ['a bigint', 1n],
    ['undefined inside an array', ['a', undefined]],
  ])('refuses %s with INVALID_ARGUMENT naming the field', (_, value) => {
    try {
      formatValue(value, 'args');
      expect.unreachable();
    } catch (err) {
      expect(isBlitzError(err, 'INVALID_ARGUMENT')).toBe(true);
      expect((err as Error).message).toMatch(/^args/);
    }
  });
});

describe('formatKey', () => {
  it.each([
    ['name', 'name'],
    ['API_KEY', 'API_KEY'],
    ['a-b_9', 'a-b_9'],
    ['with space', '"with space"'],
    ['dotted.key', '"dotted.key"'],
    ['', '""'],
    ['é', '"é"'],
    ['say "x"', '"say \\"x\\""'],
  ])('writes %j as %s, and it reads back', (key, text) => {
    expect(formatKey(key)).toBe(text);
    expect(Object.keys(parse(`${formatKey(key)} = 1`))).toEqual([key]);
  });
});
