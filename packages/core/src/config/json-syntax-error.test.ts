import { describe, expect, it } from 'vitest';
import { jsonSyntaxError } from './json-syntax-error.js';

describe('jsonSyntaxError', () => {
  it.each([
    ['root:*:20251:0:99999:7:::\n', 1, 1, 'expected a value'],
    ['{\n  "a": 1,\n}', 3, 1, 'expected a key in double quotes'],
    ['{\n  "a" 1\n}', 2, 7, 'expected ":" after the key'],
    ['{"a": [1, 2}', 1, 12, 'expected "," or "]"'],
    ['{"a": 1} x', 1, 10, 'expected the end of the file after the value'],
    ['{"a": "b\n"}', 1, 7, 'expected a complete string'],
    ['{"mcpServers": {', 1, 17, 'unexpected end of the file'],
    ['\ufeff{"a": tru}', 1, 8, 'expected a value'],
    ['{"a": {}, "b": [], "c": [{}], "d": -1.5e3, "e": "\\u00e9\\n"', 1, 59, 'unexpected end of the file'],
  ])('%j: line %i, column %i, %s', (text, line, column, what) => {
    expect(jsonSyntaxError(text)).toEqual({ line, column, what });
  });

  it('takes a file nested 100,000 deep without a deeper stack', () => {
    expect(jsonSyntaxError('['.repeat(100_000))).toEqual({ line: 1, column: 100_001, what: 'unexpected end of the file' });
  });
});
