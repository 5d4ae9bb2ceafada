import { insertBlockAfter } from './block-text.js';
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
  return insertBlockAfter(text, layout.lines, layout.servers.at(-1)?.lastLine, formatServerEntry(entry, layout.eol), layout.eol);
}
