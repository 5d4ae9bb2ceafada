import { describe, expect, it } from 'vitest';
import { surelyWithin } from './json-size.js';

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

describe('surelyWithin', () => {
  const samples: unknown[] = [
    { content: [{ type: 'text', text: 'hello' }] },
    {
      content: [{ type: 'text', text: '\u0000\u001f"\\ é 😀 \u2028' }],
      isError: true,
      structuredContent: { n: -1.2345678901234567e-308, big: 1e308, list: [null, true, false, 0] },
    },
    { content: [{ type: 'text', text: 'x'.repeat(10_000) }], _meta: { 'é"key': undefined } },
    [],
    {},
  ];

  it('never says "within" for a value whose JSON is longer than the limit', () => {
    for (const value of samples) {
      const exact = bytes(value);
      // Every limit below the exact size must answer false; at a generous bound, true.
      for (let limit = 0; limit < exact; limit += Math.max(1, Math.floor(exact / 50))) expect(surelyWithin(value, limit)).toBe(false);
      expect(surelyWithin(value, exact - 1)).toBe(false);
      expect(surelyWithin(value, exact * 6 + 64)).toBe(true);
    }
  });

  it('answers "maybe more" for what JSON treats specially, so the caller measures exactly', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(surelyWithin(cycle, 1e6)).toBe(false);
    expect(surelyWithin({ at: new Date(0) }, 1e9)).toBe(false);
    expect(surelyWithin({ custom: { toJSON: () => 'x'.repeat(100) } }, 1e9)).toBe(false);
    expect(surelyWithin({ n: 1n }, 1e9)).toBe(false);
  });
});
