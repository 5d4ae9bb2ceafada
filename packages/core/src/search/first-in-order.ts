/**
 * The first `count` of `items` in `compare`'s order, without sorting them all. An item is
 * moved into place by hand rather than spliced in (a splice makes an array each time). A
 * `compare` called here often should answer -1, 0 or 1 rather than a difference of scores: a
 * fraction it returns is a new number each call.
 */
export function firstInOrder<T>(items: Iterable<T>, count: number, compare: (a: T, b: T) => number): T[] {
  const best: T[] = [];
  if (count <= 0) return best;
  for (const item of items) {
    if (best.length === count && compare(item, best[count - 1]!) >= 0) continue;
    let at = best.length === count ? count - 1 : best.length;
    while (at > 0 && compare(item, best[at - 1]!) < 0) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = item;
  }
  return best;
}
