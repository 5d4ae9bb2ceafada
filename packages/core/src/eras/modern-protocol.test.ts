import { describe, expect, it } from 'vitest';
import { decodeHeaderValue, encodeHeaderValue } from './modern-protocol.js';

describe('encodeHeaderValue', () => {
  it('keeps printable ASCII as it is and wraps anything else in =?base64?…?=, which decodeHeaderValue reads back', () => {
    expect(encodeHeaderValue('echo')).toBe('echo');
    for (const value of ['Hello, 世界', ' padded ', 'line\nbreak', '=?base64?aGk=?=']) {
      const encoded = encodeHeaderValue(value);
      expect(encoded).toMatch(/^=\?base64\?[A-Za-z0-9+/]*={0,2}\?=$/);
      expect(decodeHeaderValue(encoded)).toBe(value);
    }
  });
});

describe('decodeHeaderValue', () => {
  it('decodes the base64 form and keeps a plain value', () => {
    expect(decodeHeaderValue(`=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`)).toBe('Hello, 世界');
    expect(decodeHeaderValue('plain')).toBe('plain');
    expect(decodeHeaderValue('=?base64?not base64!?=')).toBeUndefined();
  });
});
