import { fieldSpellings } from '../server-entry.js';
import { formatKey, formatValue, type TomlValue } from './format-value.js';
import { DEFAULT_FILE_LABEL, findServer, locateServers } from './locate-servers.js';
import type { TomlLine } from './scan-lines.js';

type KeyLine = Extract<TomlLine, { kind: 'key-value' }>;

/** Top-level fields of one entry to set (a value) or remove (`undefined`), in the order given. */
export type FieldChanges = Readonly<Record<string, TomlValue | undefined>>;

/**
 * Sets and removes top-level fields of an entry in place (`blitz mcp set`). A field written
 * already gets the new value where it stands, under the spelling found (`tool_timeout_sec`),
 * keeping its spacing and comment; a new one goes after the entry's last key (before its
 * sub-tables); a removed one loses its whole line, trailing comment included.
 */
export function setServerFields(text: string, name: string, changes: FieldChanges, file: string = DEFAULT_FILE_LABEL): string {
  const layout = locateServers(text, file);
  const block = findServer(layout, name, file);
  const keyLines = layout.lines
    .slice(block.headerLine + 1, block.mainEnd)
    .filter((l): l is KeyLine => l.kind === 'key-value' && l.path.length === 1);
  const anchor = keyLines.at(-1) ?? layout.lines[block.headerLine]!;
  const indent = anchor.kind === 'key-value' ? anchor.indent : '';
  const splices: { from: number; to: number; insert: string }[] = [];
  let added = '';
  for (const [field, value] of Object.entries(changes)) {
    const spellings = fieldSpellings(field);
    const found = keyLines.filter((l) => spellings.includes(l.path[0]!));
    if (value === undefined) {
      for (const line of found) splices.push({ from: line.start, to: line.end, insert: '' });
    } else if (found[0] !== undefined) {
      splices.push({ from: found[0].valueStart, to: found[0].valueEnd, insert: formatValue(value, field) });
    } else {
      added += `${indent}${formatKey(field)} = ${formatValue(value, field)}${layout.eol}`;
    }
  }
  if (added !== '') splices.push({ from: anchor.end, to: anchor.end, insert: (anchor.terminated ? '' : layout.eol) + added });
  // From the end backwards, so each splice's offsets still hold; an insertion at a removed line's end goes first.
  splices.sort((a, b) => b.from - a.from);
  let out = text;
  for (const s of splices) out = out.slice(0, s.from) + s.insert + out.slice(s.to);
  return out;
}

/** The spelling an entry already uses for `field` (`enabled_tools` for tools), else the field itself. */
export function spellingIn(entry: Readonly<Record<string, unknown>>, field: string): string {
  return fieldSpellings(field).find((k) => k in entry) ?? field;
}
