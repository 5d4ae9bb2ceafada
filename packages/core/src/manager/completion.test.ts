import { describe, expect, it } from 'vitest';
import { boundCompletion, MAX_COMPLETION_VALUES } from './completion.js';

describe('boundCompletion', () => {
  it('keeps a completion within the bound as it is', () => {
    const result = { completion: { values: ['a', 'b'], total: 2, hasMore: false } };
    expect(boundCompletion(result)).toBe(result);
  });

  it('cuts past 100 values, saying how many there were and that there are more', () => {
    const values = Array.from({ length: 150 }, (_, i) => String(i));
    expect(boundCompletion({ completion: { values } })).toEqual({
      completion: { values: values.slice(0, MAX_COMPLETION_VALUES), total: 150, hasMore: true },
    });
    expect(boundCompletion({ completion: { values, total: 900 } }).completion).toMatchObject({ total: 900, hasMore: true });
  });
});
