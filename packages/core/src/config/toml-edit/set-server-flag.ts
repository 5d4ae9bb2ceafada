import { DEFAULT_FILE_LABEL, findServer, locateServers } from './locate-servers.js';
import type { TomlLine } from './scan-lines.js';

type KeyLine = Extract<TomlLine, { kind: 'key-value' }>;

/**
 * Sets a boolean field of an entry in place (`auto_approve`): an existing key gets the new
 * value and keeps its comment; without one, `true` adds `<field> = true` after the entry's
 * last key (before its sub-tables) and `false` changes nothing, false being the default.
 */
export function setServerFlag(text: string, name: string, field: string, value: boolean, file: string = DEFAULT_FILE_LABEL): string {
  const layout = locateServers(text, file);
  const block = findServer(layout, name, file);
  const keyLines = layout.lines.slice(block.headerLine + 1, block.mainEnd).filter((l): l is KeyLine => l.kind === 'key-value');
  const existing = keyLines.find((l) => l.path.length === 1 && l.path[0] === field);
  if (existing) return text.slice(0, existing.valueStart) + String(value) + text.slice(existing.valueEnd);
  if (!value) return text;
  const anchor = keyLines.at(-1) ?? layout.lines[block.headerLine]!;
  const indent = anchor.kind === 'key-value' ? anchor.indent : '';
  const newline = anchor.terminated ? '' : layout.eol;
  return text.slice(0, anchor.end) + newline + `${indent}${field} = true${layout.eol}` + text.slice(anchor.end);
}
