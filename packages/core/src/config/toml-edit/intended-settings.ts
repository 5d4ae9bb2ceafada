import { BlitzError } from '../../errors/blitz-error.js';
import { DEFAULT_FILE_LABEL } from './locate-servers.js';
import { orderedFields, type ServerEntry } from './format-server-entry.js';
import type { TomlValue } from './format-value.js';
import { spellingIn, type FieldChanges } from './set-server-fields.js';
import { fieldSpellings } from '../server-entry.js';

/**
 * What each text edit must do to the parsed settings, computed on data rather than text.
 * `editSettingsFile` compares the two, so a slip in the text edit is caught before it is
 * written. None of these mutates its argument.
 */

type Table = Record<string, unknown>;

export function withServerAdded(settings: Table, entry: ServerEntry): Table {
  return withServers(settings, (servers) => [...servers, plainEntry(entry)]);
}

export function withServerRemoved(settings: Table, name: string, file: string = DEFAULT_FILE_LABEL): Table {
  return withServers(settings, (servers) => {
    const i = indexOf(servers, name, file);
    return [...servers.slice(0, i), ...servers.slice(i + 1)];
  });
}

export function withServerReplaced(settings: Table, name: string, entry: ServerEntry, file: string = DEFAULT_FILE_LABEL): Table {
  return withServers(settings, (servers) => {
    const i = indexOf(servers, name, file);
    return servers.map((s, j) => (j === i ? plainEntry(entry) : s));
  });
}

/** Mirrors `setServerFields`: each field set under the spelling the entry uses, or removed in every spelling. */
export function withServerFields(settings: Table, name: string, changes: FieldChanges, file: string = DEFAULT_FILE_LABEL): Table {
  return withServers(settings, (servers) => {
    const i = indexOf(servers, name, file);
    const server = { ...(servers[i] as Table) };
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) for (const key of fieldSpellings(field)) delete server[key];
      else server[spellingIn(server, field)] = plain(value);
    }
    return servers.map((s, j) => (j === i ? server : s));
  });
}

/** Mirrors `setServerFlag`: set the field when present, else add it only when true. */
export function withServerFlag(settings: Table, name: string, field: string, value: boolean, file: string = DEFAULT_FILE_LABEL): Table {
  return withServers(settings, (servers) => {
    const i = indexOf(servers, name, file);
    const server = { ...(servers[i] as Table) };
    if (field in server || value) server[field] = value;
    return servers.map((s, j) => (j === i ? server : s));
  });
}

function withServers(settings: Table, change: (servers: readonly unknown[]) => unknown[]): Table {
  const mcp = isTable(settings['mcp']) ? settings['mcp'] : {};
  const servers = Array.isArray(mcp['servers']) ? (mcp['servers'] as unknown[]) : [];
  const { servers: _old, ...rest } = mcp;
  const next = change(servers);
  // Removing the last entry removes the array itself: TOML has no way to spell an empty array of tables.
  return { ...settings, mcp: next.length === 0 ? rest : { ...rest, servers: next } };
}

function indexOf(servers: readonly unknown[], name: string, file: string): number {
  const i = servers.findIndex((s) => isTable(s) && s['name'] === name);
  if (i === -1) throw new BlitzError('NOT_FOUND', `no MCP server named "${name}" in ${file}`, { reason: 'MCP_SERVER_NOT_FOUND' });
  return i;
}

/** The entry as smol-toml will read it back: undefined fields (also inside tables) dropped. */
function plainEntry(entry: ServerEntry): Table {
  return Object.fromEntries(orderedFields(entry).map(([key, value]) => [key, plain(value)]));
}

function plain(value: TomlValue): unknown {
  if (Array.isArray(value)) return value.map((v: TomlValue) => plain(v));
  if (isTable(value))
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, plain(v as TomlValue)]),
    );
  return value;
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
