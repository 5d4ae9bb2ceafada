import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from './decode-utf8.js';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('decodeUtf8', () => {
  it('decodes valid UTF-8, multi-byte characters and a BOM kept', () => {
    expect(decodeUtf8(bytes('name = "café ✓ 𝄞"\n'))).toEqual({ kind: 'text', text: 'name = "café ✓ 𝄞"\n' });
    expect(decodeUtf8(bytes([0xef, 0xbb, 0xbf], 'a'))).toEqual({ kind: 'text', text: '\ufeffa' });
  });

  it('gives the line and byte column of the first bad byte', () => {
    expect(decodeUtf8(bytes('[daemon]\nport = 1\n# caf', [0xe9], '\n'))).toEqual({ kind: 'invalid', line: 3, column: 6 });
    expect(decodeUtf8(bytes([0xff]))).toEqual({ kind: 'invalid', line: 1, column: 1 });
  });

  it.each([
    ['a lone continuation byte', [0x80]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an overlong three-byte form', [0xe0, 0x80, 0xaf]],
    ['a surrogate', [0xed, 0xa0, 0x80]],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a sequence cut at the end', [0xe2, 0x9c]],
  ])('refuses %s', (_what, bad) => {
    expect(decodeUtf8(bytes('ok ', bad))).toEqual({ kind: 'invalid', line: 1, column: 4 });
  });
});
