/**
 * A unified diff of two texts, line by line, with three lines of context. The common head
 * and tail are cut first, so a large file with a small change stays cheap.
 */
export function unifiedDiff(before: string, after: string, label: string): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops = [
    ...a.slice(0, head).map((line) => ({ op: ' ', line })),
    ...middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((line) => ({ op: ' ', line })),
  ];
  return [`--- ${label}`, `+++ ${label} (after)`, ...hunks(ops)].join('\n') + '\n';
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Longest common subsequence of the changed middle. */
function middle(a: readonly string[], b: readonly string[]): { op: string; line: string }[] {
  const n = a.length;
  const m = b.length;
  // Past a few million cells the table costs more than a shorter diff is worth: all out, all in.
  if (n * m > 4_000_000) return [...a.map((line) => ({ op: '-', line })), ...b.map((line) => ({ op: '+', line }))];
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: { op: string; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', line: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: '-', line: a[i++]! });
    else out.push({ op: '+', line: b[j++]! });
  }
  while (i < n) out.push({ op: '-', line: a[i++]! });
  while (j < m) out.push({ op: '+', line: b[j++]! });
  return out;
}

function hunks(ops: readonly { op: string; line: string }[]): string[] {
  const CONTEXT = 3;
  const changed = ops.flatMap((o, i) => (o.op === ' ' ? [] : [i]));
  const groups: [number, number][] = [];
  for (const i of changed) {
    const last = groups.at(-1);
    if (last !== undefined && i - last[1] <= CONTEXT * 2 + 1) last[1] = i;
    else groups.push([i, i]);
  }
  const at: { old: number; new: number }[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const o of ops) {
    at.push({ old: oldLine, new: newLine });
    if (o.op !== '+') oldLine++;
    if (o.op !== '-') newLine++;
  }
  return groups.flatMap(([first, last]) => {
    const start = Math.max(0, first - CONTEXT);
    const slice = ops.slice(start, Math.min(ops.length, last + CONTEXT + 1));
    const oldCount = slice.filter((o) => o.op !== '+').length;
    const newCount = slice.filter((o) => o.op !== '-').length;
    return [
      `@@ -${oldCount === 0 ? at[start]!.old - 1 : at[start]!.old},${oldCount} +${newCount === 0 ? at[start]!.new - 1 : at[start]!.new},${newCount} @@`,
      ...slice.map((o) => `${o.op}${o.line}`),
    ];
  });
}
