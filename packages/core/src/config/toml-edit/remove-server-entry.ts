import { DEFAULT_FILE_LABEL, findServer, locateServers } from './locate-servers.js';

/**
 * Removes an entry: its header, keys, sub-tables and the comment lines attached directly
 * above it. One blank line next to it goes too, so removals do not pile up blank lines;
 * every other byte stays.
 */
export function removeServerEntry(text: string, name: string, file: string = DEFAULT_FILE_LABEL): string {
  const layout = locateServers(text, file);
  const block = findServer(layout, name, file);
  const { lines } = layout;
  const before = block.firstLine > 0 ? lines[block.firstLine - 1] : undefined;
  const after = lines[block.lastLine + 1];
  let from = lines[block.firstLine]!.start;
  let to = lines[block.lastLine]!.end;
  const gapAfter = after === undefined || after.kind === 'blank';
  if (before?.kind === 'blank' && gapAfter) from = before.start;
  else if (before === undefined && after?.kind === 'blank') to = after.end;
  return text.slice(0, from) + text.slice(to);
}
