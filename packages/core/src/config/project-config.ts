import crypto from 'node:crypto';
import path from 'node:path';
import { PROJECT_FILE_MAX_BYTES, readBoundedRegularFileSync, textOf, type FileRead } from '../files/index.js';
import { isTable } from './field-reader.js';
import { JsonLocator } from './json-locator.js';
import { runsBlitzConnect } from './runs-blitz.js';
import { jsonSyntaxError } from './json-syntax-error.js';
import { fieldSpellings, parseServerEntry } from './server-entry.js';
import type { Problem } from './problem.js';
import type { ServerConfig } from './server-config.js';

/** A project's MCP config files, in the order they are read; the first defining a name wins. */
export const PROJECT_CONFIG_FILES = ['.mcp.json', path.join('.agents', 'mcp_config.json')];

export interface ProjectConfig {
  root: string;
  /** The config files that exist, absolute. */
  files: string[];
  servers: ServerConfig[];
  /**
   * Skipped entries and files not read, with the reason (MCP-44): a project file is read only
   * if it is a regular file of at most 1 MB in UTF-8. Never blocks global settings.
   */
  problems: Problem[];
  /**
   * SHA-256 of exactly the bytes these servers were parsed from (and of each refusal): what
   * trust is given to and checked against. Never the hash of a second read, which a racer
   * could have swapped in between (issue 25).
   */
  hash: string;
  /**
   * The line of a project server's entry in its file, or of one of its fields (the entry's
   * line when the field is not written there): for what is found once the server runs (a
   * `tool_exposure` key matching none of its tools). Undefined for a server not read here.
   */
  serverLine(config: ServerConfig, field?: string): number | undefined;
}

/** `serverLine` of a file: by server name and field. */
type ServerLines = (name: string, field?: string) => number | undefined;

const URL_KEYS = ['url', 'httpUrl', 'serverUrl'] as const;

export interface ProjectReadOptions {
  /** Reads one project file, bounded; a test's reader may swap the file right after, as a racer would. */
  read?: (file: string) => FileRead;
}

const readBounded = (file: string): FileRead => readBoundedRegularFileSync(file, { maxBytes: PROJECT_FILE_MAX_BYTES });

/**
 * Reads `.mcp.json` and `.agents/mcp_config.json` in a workspace root (MCP-04), each once:
 * the servers and the `hash` come from the same bytes. They are read before any trust check
 * and a cloned repository controls them (git keeps symlinks and files of any size): nothing
 * in them may block or exhaust the reader.
 */
export function readProjectConfig(root: string, options: ProjectReadOptions = {}): ProjectConfig {
  const lines = new Map<string, ServerLines>();
  const hash = crypto.createHash('sha256');
  const result: ProjectConfig = {
    root,
    files: [],
    servers: [],
    problems: [],
    hash: '',
    serverLine: (config, field) => (config.source.kind === 'project' ? lines.get(config.source.file)?.(config.name, field) : undefined),
  };
  for (const rel of PROJECT_CONFIG_FILES) {
    const file = path.join(root, rel);
    const bytes = (options.read ?? readBounded)(file);
    // The same names and layout trust.json hashes have always had: trust given before stays good.
    if (bytes.kind === 'read') hash.update(`${rel}\0${bytes.bytes.length}\0`).update(bytes.bytes);
    else if (bytes.kind === 'refused') hash.update(`${rel}\0refused\0${bytes.refusal}\0`);
    const read = textOf(bytes);
    if (read.kind === 'missing') continue;
    result.files.push(file);
    if (read.kind === 'refused') {
      result.problems.push({ severity: 'error', file, ...(read.line === undefined ? {} : { line: read.line }), message: read.message });
      continue;
    }
    const { servers, serverLine } = parseProjectFile(read.text, file, result.problems);
    lines.set(file, serverLine);
    for (const server of servers) {
      if (result.servers.some((s) => s.name === server.name)) {
        result.problems.push({
          severity: 'warning',
          file,
          ...lineField(serverLine(server.name)),
          server: server.name,
          message: `skipped: already defined in ${result.servers.find((s) => s.name === server.name)!.source.file}`,
        });
      } else {
        result.servers.push(server);
      }
    }
  }
  result.hash = hash.digest('hex');
  return result;
}

/** A project file's servers, its problems added to `problems`, and where each server's fields are written. */
export function parseProjectFile(text: string, file: string, problems: Problem[]): { servers: ServerConfig[]; serverLine: ServerLines } {
  const none = { servers: [], serverLine: () => undefined };
  let doc: unknown;
  // A UTF-8 byte order mark, as some Windows editors write, is no part of the JSON (client files with one are read too).
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    doc = JSON.parse(json);
  } catch {
    // V8's message quotes the text, and the file may be a link to any file of the user's: only where, and what was expected.
    const { line, column, what } = jsonSyntaxError(json);
    problems.push({ severity: 'error', file, line, message: `not valid JSON: ${what} at line ${line}, column ${column}` });
    return none;
  }
  const at = new JsonLocator(json);
  for (const d of at.duplicates) {
    problems.push({
      severity: 'warning',
      file,
      line: d.line,
      message: `key ${JSON.stringify(d.key)} is written twice (first on line ${d.firstLine}); the last one is used`,
    });
  }
  const serverLine: ServerLines = (name, field) => fieldLine(at, name, field);
  const servers = isTable(doc) ? doc.mcpServers : undefined;
  if (servers === undefined) return none;
  if (!isTable(servers)) {
    problems.push({
      severity: 'error',
      file,
      ...lineField(at.line(['mcpServers'])),
      field: 'mcpServers',
      message: 'must be an object of servers by name',
    });
    return none;
  }
  const out: ServerConfig[] = [];
  for (const [name, raw] of Object.entries(servers)) {
    // An entry not used is its server's error, not a field's warning: `blitz trust` must not say "no MCP servers" and leave it there.
    const skip = (message: string, field?: string) =>
      problems.push({
        severity: 'error',
        file,
        ...lineField(serverLine(name, field)),
        server: name,
        ...(field === undefined ? {} : { field }),
        message: `skipped: ${message}`,
      });
    if (!isTable(raw)) {
      skip('must be an object');
      continue;
    }
    const { type, ...rest } = raw;
    if (type === 'sse') {
      skip('Blitz speaks stdio and streamable HTTP, not SSE ("type": "sse")', 'type');
      continue;
    }
    if (type !== undefined && !['stdio', 'http', 'streamable-http', 'streamableHttp'].includes(String(type))) {
      skip(`unknown transport type ${JSON.stringify(type)}`, 'type');
      continue;
    }
    const urls = URL_KEYS.filter((k) => rest[k] !== undefined);
    if (urls.length > 1) {
      skip(`has more than one URL (${urls.join(', ')})`);
      continue;
    }
    const entry: Record<string, unknown> = { ...rest, name };
    for (const k of URL_KEYS) delete entry[k];
    if (urls[0]) entry.url = rest[urls[0]];
    if (entry.command !== undefined && entry.url !== undefined) {
      skip('has both a command and a URL');
      continue;
    }
    if (entry.command === undefined && entry.url === undefined) {
      skip('has neither a command nor a URL');
      continue;
    }
    const args = Array.isArray(entry.args) && entry.args.every((a) => typeof a === 'string') ? (entry.args as string[]) : [];
    // The entry the project's clients reach Blitz by, not a broken server: a warning, as it always was.
    const clientsOwn = typeof entry.command === 'string' && runsBlitzConnect(entry.command, args);
    const reasons: Problem[] = [];
    const config = parseServerEntry(entry, { kind: 'project', file }, (field, message, severity = 'error') =>
      reasons.push({
        severity,
        file,
        ...lineField(serverLine(name, field)),
        server: name,
        ...(field === undefined ? {} : { field }),
        message,
      }),
    );
    for (const p of reasons)
      problems.push(
        p.severity === 'error' ? { ...p, ...(clientsOwn ? { severity: 'warning' } : {}), message: `skipped: ${p.message}` } : p,
      );
    if (config) out.push(config);
  }
  return { servers: out, serverLine };
}

/**
 * The line of a server's field in `mcpServers` (`tools`, `tool_exposure.pr_*`, written under
 * its alias or not), else of the table it is in (`tool_exposure`), else of the server's name.
 */
function fieldLine(at: JsonLocator, name: string, field: string | undefined): number | undefined {
  const server = ['mcpServers', name];
  for (const spelling of field === undefined ? [] : fieldSpellings(field)) {
    const dot = spelling.indexOf('.');
    const path = dot < 0 ? [spelling] : [spelling.slice(0, dot), spelling.slice(dot + 1)];
    const line = at.line([...server, ...path]) ?? at.line([...server, path[0]!]);
    if (line !== undefined) return line;
  }
  return at.line(server);
}

function lineField(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}
