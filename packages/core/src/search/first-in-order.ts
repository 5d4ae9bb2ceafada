/** The first `count` of `items` in `compare`'s order, without sorting them all. */
export function firstInOrder<T>(items: Iterable<T>, count: number, compare: (a: T, b: T) => number): T[] {
  const best: T[] = [];
  if (count <= 0) return best;
  for (const item of items) {
    if (best.length === count && compare(item, best[count - 1]!) >= 0) continue;
    let at = best.length;
    while (at > 0 && compare(item, best[at - 1]!) < 0) at--;
    best.splice(at, 0, item);
    if (best.length > count) best.pop();
  }
  return best;
}
