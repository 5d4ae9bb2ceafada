import { removeBlockLines } from './block-text.js';
import { DEFAULT_FILE_LABEL, findServer, locateServers } from './locate-servers.js';

/**
 * Removes an entry: its header, keys, sub-tables and the comment lines attached directly
 * above it. One blank line next to it goes too, so removals do not pile up blank lines;
 * every other byte stays.
 */
export function removeServerEntry(text: string, name: string, file: string = DEFAULT_FILE_LABEL): string {
  const layout = locateServers(text, file);
  const block = findServer(layout, name, file);
  return removeBlockLines(text, layout.lines, block.firstLine, block.lastLine);
}
