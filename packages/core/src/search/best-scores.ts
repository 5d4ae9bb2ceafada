/** Grown to the largest `length` asked for, never shrunk: the sorted copy of one call's scores. */
let scratch = new Float64Array(0);

/**
 * The `count` candidates with the highest `scores`, highest first, equal scores by `tieRank`
 * (lower first; the index itself when none is given): `candidates[0…length)` are indices into
 * `scores` and `tieRank`. Selected without a comparison function per candidate: the scores are
 * copied and sorted as numbers to find the `count`-th highest, and only those at or above it are
 * ordered. A comparison that returned the difference of two scores would allocate a number each
 * time it is called (a search's largest allocation, and so its GC tail, at 1,000 tools).
 */
export function bestScores(
  scores: ArrayLike<number>,
  candidates: ArrayLike<number>,
  length: number,
  count: number,
  tieRank?: ArrayLike<number>,
): number[] {
  if (count <= 0 || length <= 0) return [];
  const rank = (i: number): number => (tieRank === undefined ? i : tieRank[i]!);
  const order = (a: number, b: number): number => {
    const sa = scores[a]!;
    const sb = scores[b]!;
    return sa > sb ? -1 : sa < sb ? 1 : rank(a) - rank(b);
  };
  let threshold = -Infinity;
  if (length > count) {
    if (scratch.length < length) scratch = new Float64Array(Math.max(length, scratch.length * 2));
    const sorted = scratch.subarray(0, length);
    for (let i = 0; i < length; i++) sorted[i] = scores[candidates[i]!]!;
    sorted.sort();
    threshold = sorted[length - count]!;
  }
  const best: number[] = [];
  for (let i = 0; i < length; i++) {
    const candidate = candidates[i]!;
    if (scores[candidate]! >= threshold) best.push(candidate);
  }
  best.sort(order);
  if (best.length > count) best.length = count;
  return best;
}
