/** Compares dotted versions part by part (numbers as numbers; a pre-release tag sorts before its release). */
export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = a.split('-', 2);
  const [coreB = '', preB] = b.split('-', 2);
  const partsA = coreA.split('.');
  const partsB = coreB.split('.');
  for (let i = 0; i < Math.max(partsA.length, partsB.length); i++) {
    const x = Number(partsA[i] ?? 0);
    const y = Number(partsB[i] ?? 0);
    if (x !== y) return Number.isNaN(x) || Number.isNaN(y) ? (partsA[i] ?? '').localeCompare(partsB[i] ?? '') : x - y;
  }
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA.localeCompare(preB);
}

/**
 * What to say when the running daemon is not this `blitz`'s version (an upgrade installed
 * while it ran, or an older `blitz` elsewhere on PATH), or undefined when they match.
 */
export function daemonVersionNote(running: string, mine: string): string | undefined {
  const order = compareVersions(running, mine);
  if (order === 0) return undefined;
  return `the running daemon is Blitz ${running}, ${order < 0 ? 'older' : 'newer'} than this blitz (${mine}): restart it with \`blitz daemon restart\``;
}
