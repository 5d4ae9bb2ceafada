import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { argumentsHash } from './arguments-hash.js';

describe('argumentsHash', () => {
  it("is the SHA-256 of the arguments' canonical JSON, whatever their key order", () => {
    const expected = createHash('sha256').update('{"a":2,"b":{"c":[1,"x"],"d":null}}').digest('hex');
    expect(argumentsHash({ b: { d: null, c: [1, 'x'] }, a: 2 })).toBe(expected);
    expect(argumentsHash({ a: 2, b: { c: [1, 'x'], d: null } })).toBe(expected);
  });

  it('hashes absent arguments as {}', () => {
    expect(argumentsHash(undefined)).toBe(createHash('sha256').update('{}').digest('hex'));
  });
});
