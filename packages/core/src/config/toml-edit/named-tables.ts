import { BlitzError } from '../../errors/blitz-error.js';
import { formatKey, formatValue, type TomlValue } from './format-value.js';
import { insertBlockAfter, removeBlockLines } from './block-text.js';
import { attachedStart, lastLineBefore, lineNumber } from './locate-servers.js';
import { parseTomlText } from './parse-toml-text.js';
import { detectEol, scanLines, type Eol, type TomlLine } from './scan-lines.js';

/**
 * In-place edits of tables named by key under a parent table, such as Codex's
 * `[mcp_servers.NAME]` (with its `[mcp_servers.NAME.env]` sub-tables). The settings.toml
 * editor works on `[[mcp.servers]]` arrays; this is the same line-by-line approach for the
 * by-name layout. Every other byte stays; a layout that cannot be edited line by line is
 * refused with its line.
 */

/** Where one named table sits, as indexes into the scanned lines. */
export interface NamedTableBlock {
  readonly name: string;
  /** First comment line attached directly above the header. */
  readonly firstLine: number;
  readonly headerLine: number;
  /** Last line of the table and its sub-tables, plus comments directly below. */
  readonly lastLine: number;
}

export interface NamedTablesLayout {
  readonly lines: readonly TomlLine[];
  readonly blocks: readonly NamedTableBlock[];
}

/**
 * Finds every `[parent.NAME]` table. The text must parse. A name defined some other way —
 * an inline table (`NAME = { … }` under `[parent]`), dotted keys, or sub-tables apart from
 * their table — is refused, since an edit could not stay within it.
 */
export function locateNamedTables(text: string, parent: readonly string[], file: string): NamedTablesLayout {
  const parsed = parseTomlText(text, file);
  const lines = scanLines(text);
  const blocks: NamedTableBlock[] = [];
  let current: { name: string; headerLine: number } | undefined;
  let table: readonly string[] = [];
  const close = (next: number) => {
    if (current === undefined) return;
    blocks.push({
      name: current.name,
      firstLine: attachedStart(lines, current.headerLine),
      headerLine: current.headerLine,
      lastLine: lastLineBefore(lines, current.headerLine, next),
    });
    current = undefined;
  };
  lines.forEach((line, i) => {
    if (line.kind === 'key-value') {
      const full = [...table, ...line.path];
      if (startsWith(full, parent) && full.length <= parent.length + 1) {
        throw notEditable(
          file,
          text,
          line,
          `${full.join('.')} is written as a key rather than as a [${[...parent, '<name>'].join('.')}] table`,
        );
      }
      return;
    }
    if (line.kind !== 'table') return;
    table = line.path;
    const inside = startsWith(line.path, parent) && line.path.length > parent.length;
    if (inside && line.path.length > parent.length + 1) {
      // A sub-table belongs to the table just before it, and nowhere else.
      if (current !== undefined && line.path[parent.length] === current.name) return;
      throw notEditable(
        file,
        text,
        line,
        `the table [${line.path.join('.')}] is separated from its [${line.path.slice(0, parent.length + 1).join('.')}] table`,
      );
    }
    close(i);
    if (inside && !line.array) current = { name: line.path[parent.length]!, headerLine: i };
    else if (inside) throw notEditable(file, text, line, `[[${line.path.join('.')}]] is an array of tables`);
  });
  close(lines.length);
  const names = Object.keys(tableAt(parsed, parent) ?? {});
  const missing = names.find((n) => !blocks.some((b) => b.name === n));
  if (missing !== undefined) throw notEditable(file, text, undefined, `${[...parent, missing].join('.')} is not written as its own table`);
  return { lines, blocks };
}

/**
 * Adds `[parent.NAME]` with one `key = value` line per field (tables as inline tables), after
 * the last table under `parent` — or at the end of the file — one blank line apart.
 */
export function addNamedTable(
  text: string,
  parent: readonly string[],
  name: string,
  fields: Readonly<Record<string, TomlValue | undefined>>,
  file: string,
): string {
  const layout = locateNamedTables(text, parent, file);
  if (layout.blocks.some((b) => b.name === name)) {
    throw new BlitzError('ALREADY_EXISTS', `${file} already has a [${[...parent, name].map(formatKey).join('.')}] table`, {
      reason: 'TABLE_EXISTS',
    });
  }
  const eol = detectEol(text);
  return insertBlockAfter(text, layout.lines, layout.blocks.at(-1)?.lastLine, namedTableLines(parent, name, fields, eol), eol);
}

/** Removes `[parent.NAME]`, its sub-tables and the comments attached above it, and one blank line beside it. */
export function removeNamedTable(text: string, parent: readonly string[], name: string, file: string): string {
  const layout = locateNamedTables(text, parent, file);
  const block = layout.blocks.find((b) => b.name === name);
  if (block === undefined)
    throw new BlitzError('NOT_FOUND', `${file} has no [${[...parent, name].join('.')}] table`, { reason: 'TABLE_NOT_FOUND' });
  return removeBlockLines(text, layout.lines, block.firstLine, block.lastLine);
}

/**
 * The text of one named table, to put back later as it was: from the comments attached above
 * it, or (`from: 'header'`) from its header, when those comments stay in the file.
 */
export function namedTableText(
  text: string,
  parent: readonly string[],
  name: string,
  file: string,
  from: 'comments' | 'header' = 'comments',
): string | undefined {
  const layout = locateNamedTables(text, parent, file);
  const block = layout.blocks.find((b) => b.name === name);
  if (block === undefined) return undefined;
  const first = from === 'comments' ? block.firstLine : block.headerLine;
  return text.slice(layout.lines[first]!.start, layout.lines[block.lastLine]!.end);
}

/**
 * Puts `replacement` (whole tables, ending with a line break; '' for none) where `[parent.NAME]`
 * stood, from its header to its last line. The comments above it stay: they may head the whole
 * section (`# Servers`) as well as this table, and only its own lines are Blitz's to change.
 */
export function replaceNamedTable(text: string, parent: readonly string[], name: string, replacement: string, file: string): string {
  const layout = locateNamedTables(text, parent, file);
  const block = layout.blocks.find((b) => b.name === name);
  if (block === undefined)
    throw new BlitzError('NOT_FOUND', `${file} has no [${[...parent, name].join('.')}] table`, { reason: 'TABLE_NOT_FOUND' });
  if (replacement === '') return removeBlockLines(text, layout.lines, block.headerLine, block.lastLine);
  const last = layout.lines[block.lastLine]!;
  // A table that ended the file without a line break leaves it ending the same way.
  const lines = last.terminated ? replacement : replacement.replace(/\r?\n$/, '');
  return text.slice(0, layout.lines[block.headerLine]!.start) + lines + text.slice(last.end);
}

/** The `[parent.NAME]` table as new lines: its header and one `key = value` line per field. */
export function namedTableLines(
  parent: readonly string[],
  name: string,
  fields: Readonly<Record<string, TomlValue | undefined>>,
  eol: Eol,
): string {
  const header = `[${[...parent, name].map(formatKey).join('.')}]`;
  const body = Object.entries(fields).flatMap(([key, value]) =>
    value === undefined ? [] : [`${formatKey(key)} = ${formatValue(value, `${name}.${key}`)}`],
  );
  return [header, ...body].join(eol) + eol;
}

/** Appends a table's text (as `namedTableText` gave it) after the last table under `parent`. */
export function insertNamedTableText(text: string, parent: readonly string[], tableText: string, file: string): string {
  const layout = locateNamedTables(text, parent, file);
  const eol = detectEol(text);
  const block = /\n$/.test(tableText) ? tableText : tableText + eol;
  return insertBlockAfter(text, layout.lines, layout.blocks.at(-1)?.lastLine, block, eol);
}

function tableAt(doc: Record<string, unknown>, path: readonly string[]): Record<string, unknown> | undefined {
  let node: unknown = doc;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((segment, i) => path[i] === segment);
}

function notEditable(file: string, text: string, line: TomlLine | undefined, why: string): BlitzError {
  const where = line === undefined ? '' : ` (line ${lineNumber(text, line.start)})`;
  return new BlitzError('FAILED_PRECONDITION', `cannot edit ${file}: ${why}${where}; edit the file by hand`, {
    reason: 'TOML_NOT_EDITABLE',
  });
}
