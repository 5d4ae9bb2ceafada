import { describe, expect, it } from 'vitest';
import { principalAxes, projectOnto } from './principal-axes.js';

/** Rows that vary along three known directions of a 6-d space (spreads 5, 2 and 1), and a little along the rest. */
function rows(count: number): number[][] {
  let seed = 3;
  const next = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647 - 0.5;
  const s = Math.SQRT1_2;
  const directions = [
    [s, s, 0, 0, 0, 0],
    [s, -s, 0, 0, 0, 0],
    [0, 0, 0, 1, 0, 0],
  ];
  return Array.from({ length: count }, () => {
    const row = Array.from({ length: 6 }, () => 0.05 * next() + 3);
    [5, 2, 1].forEach((spread, k) => {
      const along = spread * next();
      directions[k]!.forEach((x, d) => (row[d]! += along * x));
    });
    return row;
  });
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => Array.from(a).reduce((sum, x, d) => sum + x * b[d]!, 0);

describe('principalAxes', () => {
  const data = rows(2000);

  it('finds the directions the rows vary most along, most first, whatever their common offset', () => {
    const [first, second, third] = principalAxes(data, 3);
    expect(Math.abs(dot(first!, [Math.SQRT1_2, Math.SQRT1_2, 0, 0, 0, 0]))).toBeGreaterThan(0.99);
    expect(Math.abs(dot(second!, [Math.SQRT1_2, -Math.SQRT1_2, 0, 0, 0, 0]))).toBeGreaterThan(0.99);
    expect(Math.abs(dot(third!, [0, 0, 0, 1, 0, 0]))).toBeGreaterThan(0.99);
  });

  it('answers orthonormal axes, at most as many as the rows have dimensions, the same on every run', () => {
    const axes = principalAxes(data, 10);
    expect(axes).toHaveLength(6);
    axes.forEach((a, i) => axes.forEach((b, j) => expect(dot(a, b)).toBeCloseTo(i === j ? 1 : 0, 6)));
    expect(principalAxes(data, 3)).toEqual(principalAxes(data, 3));
    expect(principalAxes([], 3)).toEqual([]);
  });

  it('projected onto the first axes, rows keep their differences along them', () => {
    const axes = principalAxes(data, 2);
    const [a, b] = [projectOnto(data[0]!, axes), projectOnto(data[1]!, axes)];
    expect(a).toHaveLength(2);
    const along = (row: number[], k: number): number => dot(row, axes[k]!);
    expect(a[0]! - b[0]!).toBeCloseTo(along(data[0]!, 0) - along(data[1]!, 0), 10);
  });
});
