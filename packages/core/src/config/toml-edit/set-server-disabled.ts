import { DEFAULT_FILE_LABEL, findServer, locateServers } from './locate-servers.js';
import type { TomlLine } from './scan-lines.js';

type KeyLine = Extract<TomlLine, { kind: 'key-value' }>;

/**
 * Disables or enables an entry in place. An existing `disabled = …` gets the new value, an
 * `enabled = …` (Codex alias) the inverse, each keeping its comment. Without either key,
 * disabling adds `disabled = true` after the entry's last key (before its sub-tables), and
 * enabling changes nothing.
 */
export function setServerDisabled(text: string, name: string, disabled: boolean, file: string = DEFAULT_FILE_LABEL): string {
  const layout = locateServers(text, file);
  const block = findServer(layout, name, file);
  const keyLines = layout.lines.slice(block.headerLine + 1, block.mainEnd).filter((l): l is KeyLine => l.kind === 'key-value');
  const flags = keyLines.filter((l) => l.path.length === 1 && (l.path[0] === 'disabled' || l.path[0] === 'enabled'));

  if (flags.length > 0) {
    // Re-enabling writes `disabled = false` rather than deleting the key: the user's comment on it survives and toggling is reversible.
    let out = text;
    for (const line of [...flags].reverse()) {
      const value = line.path[0] === 'disabled' ? disabled : !disabled;
      out = out.slice(0, line.valueStart) + String(value) + out.slice(line.valueEnd);
    }
    return out;
  }
  if (!disabled) return text;

  const anchor = keyLines.at(-1) ?? layout.lines[block.headerLine]!;
  const indent = anchor.kind === 'key-value' ? anchor.indent : '';
  const newline = anchor.terminated ? '' : layout.eol;
  return text.slice(0, anchor.end) + newline + `${indent}disabled = true${layout.eol}` + text.slice(anchor.end);
}
