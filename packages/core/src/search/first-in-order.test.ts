import { describe, expect, it } from 'vitest';
import { firstInOrder } from './first-in-order.js';

const ascending = (a: number, b: number): number => (a < b ? -1 : a > b ? 1 : 0);

describe('firstInOrder', () => {
  it("answers the first `count` items in the comparison's order, as a full sort would", () => {
    let seed = 11;
    const items = Array.from({ length: 500 }, () => (seed = (seed * 48271) % 2147483647) % 97);
    for (const count of [1, 2, 8, 100, 499, 500, 600])
      expect(firstInOrder(items, count, ascending)).toEqual([...items].sort(ascending).slice(0, count));
  });

  it('keeps equal items in the order they came (stable)', () => {
    const items = [
      { k: 1, n: 'a' },
      { k: 0, n: 'b' },
      { k: 1, n: 'c' },
      { k: 0, n: 'd' },
      { k: 1, n: 'e' },
    ];
    expect(firstInOrder(items, 4, (a, b) => a.k - b.k).map((i) => i.n)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('answers nothing for a count of 0 or less', () => {
    expect(firstInOrder([3, 1, 2], 0, ascending)).toEqual([]);
    expect(firstInOrder([3, 1, 2], -1, ascending)).toEqual([]);
  });
});
