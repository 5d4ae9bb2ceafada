import { describe, expect, it } from 'vitest';
import { bestScores } from './best-scores.js';

/** What bestScores answers, the slow way: every candidate sorted by score (highest first), then by tie rank. */
function sorted(scores: number[], candidates: number[], count: number, tieRank?: number[]): number[] {
  const rank = (i: number): number => tieRank?.[i] ?? i;
  return [...candidates].sort((a, b) => scores[b]! - scores[a]! || rank(a) - rank(b)).slice(0, Math.max(0, count));
}

describe('bestScores', () => {
  let seed = 5;
  const next = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
  // Few distinct values: many ties at the cut.
  const scores = Array.from({ length: 1000 }, () => Math.round(next() * 40) / 40 - 0.5);
  const everyone = scores.map((_, i) => i);

  it('answers the `count` highest, highest first, equal scores by index, as a full sort would', () => {
    for (const count of [1, 8, 100, 999, 1000, 1200]) {
      expect(bestScores(Float64Array.from(scores), Int32Array.from(everyone), everyone.length, count)).toEqual(
        sorted(scores, everyone, count),
      );
    }
  });

  it('orders equal scores by the tie rank given, and looks only at the first `length` candidates', () => {
    const tieRank = everyone.map((i) => (i * 7919) % 1000);
    const some = everyone.filter((i) => i % 3 !== 0);
    const candidates = Int32Array.from([...some, 0, 3, 6]);
    expect(bestScores(scores, candidates, some.length, 50, tieRank)).toEqual(sorted(scores, some, 50, tieRank));
  });

  it('answers nothing for no candidates or a count of 0', () => {
    expect(bestScores([1, 2], [0, 1], 0, 5)).toEqual([]);
    expect(bestScores([1, 2], [0, 1], 2, 0)).toEqual([]);
  });
});
