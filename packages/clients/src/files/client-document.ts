import {
  addNamedTable,
  BlitzError,
  detectEol,
  insertNamedTableText,
  isTable,
  locateNamedTables,
  namedTableLines,
  namedTableText,
  parseTomlText,
  removeNamedTable,
  replaceNamedTable,
  type TomlValue,
} from '@blitz/core';
import type { ClientSpec } from '../client-spec.js';
import { parseJsonText, setJsonValue } from './json-document.js';

/** A server as it was written in a client's file, kept to put it back: the JSON value, or the TOML table's text. */
export type SavedServer = { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'toml'; readonly text: string };

/** The parsed document, refused (with its line) when it does not parse. */
export function parseClientText(spec: ClientSpec, text: string, file: string): Record<string, unknown> {
  return spec.format === 'json' ? parseJsonText(text, file) : parseTomlText(text, file);
}

/** The servers in file order, as written; an error when the servers key holds something else. */
export function serversOf(spec: ClientSpec, data: Record<string, unknown>, file: string): [string, unknown][] {
  let node: unknown = data;
  for (const key of spec.serversKey) {
    if (!isTable(node)) return [];
    node = node[key];
  }
  if (node === undefined) return [];
  if (!isTable(node)) {
    throw new BlitzError(
      'FAILED_PRECONDITION',
      `${file}: ${spec.serversKey.join('.')} must be an object of servers by name; nothing was changed`,
      { reason: 'CLIENT_CONFIG_INVALID' },
    );
  }
  return Object.entries(node);
}

/**
 * Text with the server `name` set to `value`. In TOML a table stays where it stands, and a new
 * one takes the place of the table `inPlaceOf` (under that table's comments) or goes last.
 */
export function withServerText(
  spec: ClientSpec,
  text: string,
  file: string,
  name: string,
  value: Record<string, unknown>,
  inPlaceOf?: string,
): string {
  if (spec.format === 'json') {
    const without = inPlaceOf === undefined ? text : setJsonValue(text, [...spec.serversKey, inPlaceOf], undefined);
    return setJsonValue(without, [...spec.serversKey, name], value);
  }
  const fields = value as Record<string, TomlValue>;
  const at = hasTomlTable(spec, text, file, name) ? name : inPlaceOf;
  if (at === undefined) return addNamedTable(text, spec.serversKey, name, fields, file);
  return replaceNamedTable(text, spec.serversKey, at, namedTableLines(spec.serversKey, name, fields, detectEol(text)), file);
}

/** Text without the server `name`; in TOML, `keepComments` leaves the comments above its table. */
export function withoutServerText(spec: ClientSpec, text: string, file: string, name: string, keepComments = false): string {
  if (spec.format === 'json') return setJsonValue(text, [...spec.serversKey, name], undefined);
  return keepComments ? replaceNamedTable(text, spec.serversKey, name, '', file) : removeNamedTable(text, spec.serversKey, name, file);
}

/**
 * What to keep of a server before removing it, to put it back as it was. In TOML, `from:
 * 'header'` leaves out the comments above its table, for a table whose comments stay in the file.
 */
export function savedServer(
  spec: ClientSpec,
  text: string,
  file: string,
  name: string,
  value: unknown,
  from: 'comments' | 'header' = 'comments',
): SavedServer {
  if (spec.format === 'json') return { kind: 'json', value };
  return { kind: 'toml', text: namedTableText(text, spec.serversKey, name, file, from) ?? '' };
}

export function withSavedServerText(spec: ClientSpec, text: string, file: string, name: string, saved: SavedServer): string {
  if (saved.kind === 'json') return setJsonValue(text, [...spec.serversKey, name], saved.value);
  return insertNamedTableText(text, spec.serversKey, saved.text, file);
}

/** TOML text with the saved tables, in order, where the table `name` stood (under its comments). */
export function withSavedTablesInPlaceOf(
  spec: ClientSpec,
  text: string,
  file: string,
  name: string,
  saved: readonly SavedServer[],
): string {
  const eol = detectEol(text);
  const tables = saved.flatMap((s) => (s.kind === 'toml' && s.text !== '' ? [/\n$/.test(s.text) ? s.text : s.text + eol] : []));
  return replaceNamedTable(text, spec.serversKey, name, tables.join(eol), file);
}

/** The same changes on parsed data, to check the text edit against. */
export function withServerData(spec: ClientSpec, data: Record<string, unknown>, name: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(data);
  let node: Record<string, unknown> = copy;
  for (const key of spec.serversKey) {
    if (!isTable(node[key])) {
      if (value === undefined) return copy;
      node[key] = {};
    }
    node = node[key] as Record<string, unknown>;
  }
  if (value === undefined) delete node[name];
  else node[name] = value;
  return copy;
}

function hasTomlTable(spec: ClientSpec, text: string, file: string, name: string): boolean {
  return locateNamedTables(text, spec.serversKey, file).blocks.some((b) => b.name === name);
}
