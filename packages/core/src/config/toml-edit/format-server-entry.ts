import { BlitzError } from '../../errors/blitz-error.js';
import { formatKey, formatValue, type TomlValue } from './format-value.js';
import type { Eol } from './scan-lines.js';

/**
 * One `[[mcp.servers]]` entry as written in settings.toml: field names of the file and
 * TOML-native values. Undefined fields are left out; fields not listed here are written
 * after the known ones, in the order given.
 */
export interface ServerEntry {
  readonly name: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly tools?: readonly string[];
  readonly auto_approve?: boolean;
  readonly sandbox?: boolean;
  readonly prefix?: string;
  readonly agents?: readonly string[];
  readonly timeout_seconds?: number;
  readonly startup_timeout_seconds?: number;
  readonly idle_timeout_seconds?: number;
  readonly disabled?: boolean;
  readonly sampling?: boolean;
  readonly roots?: false | readonly string[];
  readonly sandbox_write?: readonly string[];
  readonly share?: boolean;
  readonly oauth?: Readonly<Record<string, TomlValue>>;
  readonly [field: string]: TomlValue | undefined;
}

/** Name first, then how to reach the server, then the rest. */
export const SERVER_FIELD_ORDER = [
  'name',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'tools',
  'auto_approve',
  'sandbox',
  'sandbox_write',
  'prefix',
  'agents',
  'timeout_seconds',
  'startup_timeout_seconds',
  'idle_timeout_seconds',
  'disabled',
  'sampling',
  'roots',
  'share',
  'oauth',
] as const;

/** The entry's fields in writing order, without undefined ones. */
export function orderedFields(entry: ServerEntry): [string, TomlValue][] {
  if (typeof entry.name !== 'string' || entry.name === '') {
    throw new BlitzError('INVALID_ARGUMENT', 'an MCP server entry needs a non-empty name', { problems: ['name: is required'] });
  }
  const known: readonly string[] = SERVER_FIELD_ORDER;
  const keys = [...SERVER_FIELD_ORDER, ...Object.keys(entry).filter((k) => !known.includes(k))];
  return keys.flatMap((key) => {
    const value = entry[key];
    return value === undefined ? [] : [[key, value] as [string, TomlValue]];
  });
}

/**
 * A fresh `[[mcp.servers]]` block, one `key = value` per line and ending with `eol`.
 * Tables (env, headers, oauth) are inline tables so the whole entry sits under one header.
 */
export function formatServerEntry(entry: ServerEntry, eol: Eol): string {
  const lines = ['[[mcp.servers]]', ...orderedFields(entry).map(([key, value]) => `${formatKey(key)} = ${formatValue(value, key)}`)];
  return lines.join(eol) + eol;
}
