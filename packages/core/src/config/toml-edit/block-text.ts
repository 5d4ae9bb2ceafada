import type { Eol, TomlLine } from './scan-lines.js';

/**
 * The two text moves every block edit makes, for `[[mcp.servers]]` entries and named tables
 * alike: cutting a block's lines out, and putting a new block after the last one.
 */

/**
 * Removes lines `firstLine`…`lastLine` and one blank line next to them, so removals do not
 * pile up blank lines; every other byte stays.
 */
export function removeBlockLines(text: string, lines: readonly TomlLine[], firstLine: number, lastLine: number): string {
  const before = firstLine > 0 ? lines[firstLine - 1] : undefined;
  const after = lines[lastLine + 1];
  let from = lines[firstLine]!.start;
  let to = lines[lastLine]!.end;
  const gapAfter = after === undefined || after.kind === 'blank';
  if (before?.kind === 'blank' && gapAfter) from = before.start;
  else if (before === undefined && after?.kind === 'blank') to = after.end;
  return text.slice(0, from) + text.slice(to);
}

/**
 * Puts `block` (ending with `eol`) after line `lastLine` of the last block, one blank line
 * apart from its neighbours — or, with no block yet (`undefined`), at the end of the text.
 * Only adds bytes: a missing final newline is the one thing added elsewhere.
 */
export function insertBlockAfter(text: string, lines: readonly TomlLine[], lastLine: number | undefined, block: string, eol: Eol): string {
  if (lastLine === undefined) {
    if (text === '') return block;
    const last = lines.at(-1);
    const newline = last?.terminated === false ? eol : '';
    const gap = last === undefined || last.kind === 'blank' ? '' : eol;
    return text + newline + gap + block;
  }
  const after = lines[lastLine]!;
  const following = lines[lastLine + 1];
  const head = text.slice(0, after.end) + (after.terminated ? '' : eol);
  const gapAfter = following === undefined || following.kind === 'blank' ? '' : eol;
  let tail = text.slice(after.end);
  if (tail !== '' && !/\n$/.test(tail)) tail += eol;
  return head + eol + block + gapAfter + tail;
}
