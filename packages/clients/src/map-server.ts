import { isTable, SERVER_NAME, type ServerEntry, type TomlValue } from '@blitz/core';
import type { ServerMapping } from './client-spec.js';
import { Fields, SkipServer } from './fields.js';

/** Turns a client's text value into Blitz's, with a warning when something cannot be kept as it means. */
export type RefConverter = (text: string, field: string, warn: (message: string) => void) => string;

export interface JsonShape {
  /** Fields holding a streamable HTTP URL, in order of preference (`url`, `serverUrl`, `httpUrl`). */
  readonly urlKeys: readonly string[];
  /** Accepted `type` values and what they mean; without the field the shape is taken from command/url. */
  readonly types: Readonly<Record<string, 'stdio' | 'http' | 'sse'>>;
  readonly refs: RefConverter;
  /** Client-specific fields, read after the common ones. */
  readonly extra?: (fields: Fields, entry: MutableEntry, warn: (message: string) => void) => void;
}

export type MutableEntry = { name: string } & Record<string, TomlValue>;

/**
 * The common `mcpServers` shape (Claude Code, Claude Desktop, Cursor, VS Code, Windsurf,
 * Gemini, Zed): `command`/`args`/`env`/`cwd` for stdio, a URL and `headers` for HTTP.
 */
export function mapJsonServer(name: string, raw: unknown, shape: JsonShape): ServerMapping {
  return mapping(name, raw, (fields, entry, warn) => {
    const type = fields.string('type');
    const kind = type === undefined ? undefined : shape.types[type];
    if (type !== undefined && kind === undefined) throw new SkipServer(`type: unknown transport type ${JSON.stringify(type)}`);
    if (kind === 'sse') throw new SkipServer('type: Blitz speaks stdio and streamable HTTP, not SSE ("type": "sse")');
    const urls = shape.urlKeys.filter((k) => fields.has(k));
    if (urls.length > 1) throw new SkipServer(`has more than one URL (${urls.join(', ')})`);
    const urlKey = urls[0];
    if (fields.has('command') && urlKey !== undefined)
      throw new SkipServer(`has both command and ${urlKey}; a server is either a command (stdio) or a URL (HTTP)`);
    if (kind === 'http' && urlKey === undefined)
      throw new SkipServer(`type is ${JSON.stringify(type)} but there is no ${shape.urlKeys.join(' or ')}`);
    if (kind === 'stdio' && !fields.has('command')) throw new SkipServer(`type is ${JSON.stringify(type)} but there is no command`);
    if (fields.has('command')) {
      readStdio(fields, entry);
    } else if (urlKey !== undefined) {
      entry.url = fields.string(urlKey)!;
      const headers = fields.stringMap('headers');
      if (headers !== undefined && Object.keys(headers).length > 0) entry.headers = headers;
    } else {
      throw new SkipServer('has neither a command nor a URL');
    }
    shape.extra?.(fields, entry, warn);
    convertRefs(entry, shape.refs, warn);
  });
}

/** command, args, env, cwd into the entry. */
export function readStdio(fields: Fields, entry: MutableEntry): void {
  const command = fields.string('command');
  if (command === undefined || command.trim() === '') throw new SkipServer('command: must not be empty');
  entry.command = command;
  const args = fields.strings('args');
  if (args !== undefined && args.length > 0) entry.args = args;
  const env = fields.stringMap('env');
  if (env !== undefined && Object.keys(env).length > 0) entry.env = env;
  const cwd = fields.string('cwd');
  if (cwd !== undefined) entry.cwd = cwd;
}

/**
 * Runs a client's field reader: a wrong field skips the server with its reason, fields never
 * read are named in a warning, and a name Blitz cannot use is made usable and said so.
 */
export function mapping(
  name: string,
  raw: unknown,
  read: (fields: Fields, entry: MutableEntry, warn: (message: string) => void) => void,
): ServerMapping {
  if (!isTable(raw)) return { kind: 'skipped', reason: 'must be an object' };
  const warnings: string[] = [];
  const blitzName = SERVER_NAME.test(name) ? name : name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'server';
  if (blitzName !== name)
    warnings.push(`the name ${JSON.stringify(name)} is imported as "${blitzName}" (Blitz names use letters, digits, ".", "-" and "_")`);
  const entry: MutableEntry = { name: blitzName };
  const fields = new Fields(raw);
  try {
    read(fields, entry, (message) => warnings.push(message));
  } catch (err) {
    if (err instanceof SkipServer) return { kind: 'skipped', reason: err.message };
    throw err;
  }
  for (const key of fields.unread()) warnings.push(`${key} is not imported (Blitz has no such setting)`);
  return { kind: 'server', entry: entry as ServerEntry, warnings };
}

/** Applies a client's reference syntax to every text that may hold one. */
export function convertRefs(entry: MutableEntry, refs: RefConverter, warn: (message: string) => void): void {
  const text = (value: TomlValue | undefined, field: string) => (typeof value === 'string' ? refs(value, field, warn) : value);
  for (const key of ['command', 'url', 'cwd'] as const) {
    if (typeof entry[key] === 'string') entry[key] = text(entry[key], key)!;
  }
  if (Array.isArray(entry.args)) entry.args = (entry.args as string[]).map((a, i) => refs(a, `args[${i}]`, warn));
  for (const key of ['env', 'headers'] as const) {
    const table = entry[key];
    if (isTable(table))
      entry[key] = Object.fromEntries(Object.entries(table as Record<string, string>).map(([k, v]) => [k, refs(v, `${key}.${k}`, warn)]));
  }
}

/** `${VAR}`, `${VAR:-default}` and `${env:VAR}` are Blitz's own syntax: kept as they are. */
export const keepRefs: RefConverter = (text) => text;
