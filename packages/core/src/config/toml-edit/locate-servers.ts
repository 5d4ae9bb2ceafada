import { BlitzError } from '../../errors/blitz-error.js';
import { parseTomlText } from './parse-toml-text.js';
import { detectEol, scanLines, type Eol, type TomlLine } from './scan-lines.js';

/** Where one `[[mcp.servers]]` entry sits in the text, as indexes into `lines`. */
export interface ServerBlock {
  /** Position in the parsed `mcp.servers` array. */
  readonly index: number;
  /** The entry's `name` as parsed (so `'x'`, `"name" = "x"` and escapes all read the same). */
  readonly name: unknown;
  /** First comment line attached directly above the header (the header itself when none). */
  readonly firstLine: number;
  readonly headerLine: number;
  /** End (exclusive) of the entry's main table: its first sub-table header, or `lastLine + 1`. */
  readonly mainEnd: number;
  /** Last line of the entry: its last key or header, plus comment lines directly below it. */
  readonly lastLine: number;
}

export interface SettingsLayout {
  readonly lines: readonly TomlLine[];
  readonly eol: Eol;
  readonly servers: readonly ServerBlock[];
}

const SERVERS_PATH = ['mcp', 'servers'] as const;

/**
 * Finds every `[[mcp.servers]]` entry. The text must parse; entries are matched to the
 * parsed array by position (TOML appends array tables in document order), which is how a
 * name is found however it is quoted. Layouts Blitz cannot edit line by line are refused.
 */
export function locateServers(text: string, file: string): SettingsLayout {
  const parsed = parseTomlText(text, file);
  const lines = scanLines(text);
  const headers = lines.flatMap((line, i) => (isServerHeader(line) ? [i] : []));
  const parsedServers = serversOf(parsed);
  if (parsedServers === undefined) return { lines, eol: detectEol(text), servers: [] };
  if (!Array.isArray(parsedServers)) {
    throw notEditable(file, text, lines, 'mcp.servers is written as a table rather than as [[mcp.servers]] entries');
  }
  // An array with no [[mcp.servers]] header at all, even an empty one, was written inline.
  if (headers.length !== parsedServers.length || headers.length === 0) {
    throw notEditable(
      file,
      text,
      lines,
      'the MCP servers are written as an inline array (mcp.servers = [...], or servers = [...] under [mcp])',
    );
  }
  const servers = headers.map((headerLine, index) =>
    blockAt(lines, headerLine, index, (parsedServers[index] as { name?: unknown } | undefined)?.name),
  );
  checkNoStraySubTables(lines, servers, file, text);
  return { lines, eol: detectEol(text), servers };
}

/** The entry with this name (the first, should the file repeat a name). */
export function findServer(layout: SettingsLayout, name: string, file: string): ServerBlock {
  const block = layout.servers.find((s) => s.name === name);
  if (block === undefined)
    throw new BlitzError('NOT_FOUND', `no MCP server named "${name}" in ${file}`, { reason: 'MCP_SERVER_NOT_FOUND' });
  return block;
}

export function assertNameFree(layout: SettingsLayout, name: string, file: string): void {
  if (layout.servers.some((s) => s.name === name)) {
    throw new BlitzError('ALREADY_EXISTS', `an MCP server named "${name}" already exists in ${file}`, { reason: 'MCP_SERVER_EXISTS' });
  }
}

function serversOf(parsed: Record<string, unknown>): unknown {
  const mcp = parsed['mcp'];
  return typeof mcp === 'object' && mcp !== null ? (mcp as Record<string, unknown>)['servers'] : undefined;
}

function isServerHeader(line: TomlLine): boolean {
  return line.kind === 'table' && line.array && samePath(line.path, SERVERS_PATH);
}

/** `[mcp.servers.env]`, `[mcp.servers.oauth]`, …: a table inside the latest entry. */
function isSubTableHeader(line: TomlLine): boolean {
  return line.kind === 'table' && line.path.length > 2 && samePath(line.path.slice(0, 2), SERVERS_PATH);
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

function blockAt(lines: readonly TomlLine[], headerLine: number, index: number, name: unknown): ServerBlock {
  let next = headerLine + 1;
  let mainEnd: number | undefined;
  for (; next < lines.length; next++) {
    const line = lines[next]!;
    if (line.kind !== 'table') continue;
    if (!isSubTableHeader(line)) break;
    mainEnd ??= next;
  }
  const lastLine = lastLineBefore(lines, headerLine, next);
  return { index, name, firstLine: attachedStart(lines, headerLine), headerLine, mainEnd: mainEnd ?? lastLine + 1, lastLine };
}

/** The first of the comment lines directly above line `at`, with no blank line between. */
export function attachedStart(lines: readonly TomlLine[], at: number): number {
  let first = at;
  while (first > 0 && lines[first - 1]!.kind === 'comment') first--;
  return first;
}

/**
 * The entry's last line before the next header at `next`: its last key or header, then
 * the comments directly below (such as a commented-out key). Comments attached to the next
 * header belong to it, and a comment after a blank line is free text between blocks.
 */
export function lastLineBefore(lines: readonly TomlLine[], headerLine: number, next: number): number {
  const limit = next < lines.length ? attachedStart(lines, next) : lines.length;
  let last = limit - 1;
  while (last > headerLine && (lines[last]!.kind === 'blank' || lines[last]!.kind === 'comment')) last--;
  while (last + 1 < limit && lines[last + 1]!.kind === 'comment') last++;
  return last;
}

/** A `[mcp.servers.x]` header away from its entry would silently change owner on any edit. */
function checkNoStraySubTables(lines: readonly TomlLine[], servers: readonly ServerBlock[], file: string, text: string): void {
  lines.forEach((line, i) => {
    if (!isSubTableHeader(line)) return;
    if (servers.some((s) => i > s.headerLine && i <= s.lastLine)) return;
    throw notEditable(file, text, lines, `the table at line ${lineNumber(text, line.start)} is separated from its [[mcp.servers]] entry`);
  });
}

function notEditable(file: string, text: string, lines: readonly TomlLine[], why: string): BlitzError {
  const at = inlineServersLine(lines);
  const where = at === undefined ? '' : ` (line ${lineNumber(text, at.start)})`;
  return new BlitzError(
    'FAILED_PRECONDITION',
    `cannot edit ${file}: ${why}${where}; Blitz edits only [[mcp.servers]] entries — edit the file by hand`,
    {
      reason: 'SETTINGS_NOT_EDITABLE',
    },
  );
}

/** The key line that defines `mcp.servers` (or all of `mcp`) inline, to point the user at it. */
function inlineServersLine(lines: readonly TomlLine[]): TomlLine | undefined {
  let table: readonly string[] = [];
  for (const line of lines) {
    if (line.kind === 'table') table = line.path;
    if (line.kind !== 'key-value') continue;
    const full = [...table, ...line.path];
    if (samePath(full, SERVERS_PATH) || samePath(full, ['mcp'])) return line;
  }
  return undefined;
}

export function lineNumber(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** How the pure edits name the file in messages when the caller does not pass its path. */
export const DEFAULT_FILE_LABEL = 'settings.toml';
