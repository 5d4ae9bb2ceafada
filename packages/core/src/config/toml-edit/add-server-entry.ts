import { formatServerEntry, type ServerEntry } from './format-server-entry.js';
import { assertNameFree, DEFAULT_FILE_LABEL, locateServers } from './locate-servers.js';

/**
 * Adds a `[[mcp.servers]]` block after the last server entry (at the end of the file when
 * there is none), one blank line apart from its neighbours. Only adds bytes: a missing
 * final newline is the one thing added elsewhere. A name already in use is refused.
 */
export function addServerEntry(text: string, entry: ServerEntry, file: string = DEFAULT_FILE_LABEL): string {
  const layout = locateServers(text, file);
  assertNameFree(layout, entry.name, file);
  const { lines, eol } = layout;
  const block = formatServerEntry(entry, eol);
  const last = layout.servers.at(-1);

  if (last === undefined) {
    if (text === '') return block;
    const lastLine = lines.at(-1);
    const newline = lastLine?.terminated === false ? eol : '';
    const gap = lastLine === undefined || lastLine.kind === 'blank' ? '' : eol;
    return text + newline + gap + block;
  }

  const after = lines[last.lastLine]!;
  const following = lines[last.lastLine + 1];
  const head = text.slice(0, after.end) + (after.terminated ? '' : eol);
  const gapAfter = following === undefined || following.kind === 'blank' ? '' : eol;
  let tail = text.slice(after.end);
  if (tail !== '' && !/\n$/.test(tail)) tail += eol;
  return head + eol + block + gapAfter + tail;
}
