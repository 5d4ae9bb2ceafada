import { formatServerEntry, type ServerEntry } from './format-server-entry.js';
import { assertNameFree, DEFAULT_FILE_LABEL, findServer, locateServers } from './locate-servers.js';

/**
 * Writes an entry afresh where it stands: the comments attached above it stay, comments
 * inside it go with the old keys. A different `entry.name` renames it (to a free name only).
 */
export function replaceServerEntry(text: string, name: string, entry: ServerEntry, file: string = DEFAULT_FILE_LABEL): string {
  const layout = locateServers(text, file);
  const block = findServer(layout, name, file);
  if (entry.name !== name) assertNameFree(layout, entry.name, file);
  const from = layout.lines[block.headerLine]!.start;
  const to = layout.lines[block.lastLine]!.end;
  return text.slice(0, from) + formatServerEntry(entry, layout.eol) + text.slice(to);
}
