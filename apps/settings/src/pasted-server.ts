/** A server as another client's config writes it: what the form can be filled with. */
export interface PastedServer {
  /** Its key in `mcpServers`, when the text had one. */
  name?: string;
  transport: 'stdio' | 'http';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  /** Keys of the entry the form has no place for (`type`, `alwaysAllow`, …). */
  ignored: string[];
  /** The other servers in the text, by name: pasted one at a time. */
  others: string[];
}

const ENTRY_KEYS = ['command', 'args', 'env', 'url', 'serverUrl', 'httpUrl', 'headers', 'type', 'transport'];

/**
 * Reads a server's JSON as READMEs give it: `{"mcpServers": {"name": {…}}}` (Claude, Cursor),
 * `{"servers": {…}}` (VS Code), `{"name": {…}}`, `"name": {…}` without the outer braces, or
 * one entry (`{"command": …}`, `{"url": …}`). The first server wins; the rest are named.
 */
export function readPastedServer(text: string): PastedServer | { error: string } {
  const value = parseLoosely(text.trim());
  if (value === undefined) return { error: 'this is not JSON: paste the part of the README between its outer { and }' };
  if (!isObject(value)) return { error: 'this JSON is not an object with a server in it' };
  if (isEntry(value)) return fromEntry(undefined, value, []);
  const servers = isObject(value.mcpServers) ? value.mcpServers : isObject(value.servers) ? value.servers : value;
  const named = Object.entries(servers).filter(([, v]) => isObject(v) && isEntry(v)) as Array<[string, Record<string, unknown>]>;
  if (named.length === 0) return { error: 'no server found: a server has a "command" (stdio) or a "url" (HTTP)' };
  const [[name, entry], ...rest] = named as [[string, Record<string, unknown>], ...Array<[string, Record<string, unknown>]>];
  return fromEntry(
    name,
    entry,
    rest.map(([n]) => n),
  );
}

function fromEntry(name: string | undefined, entry: Record<string, unknown>, others: string[]): PastedServer {
  const url = [entry.url, entry.serverUrl, entry.httpUrl].find((u): u is string => typeof u === 'string');
  const out: PastedServer = { transport: url !== undefined && typeof entry.command !== 'string' ? 'http' : 'stdio', ignored: [], others };
  if (name !== undefined) out.name = name;
  if (typeof entry.command === 'string') out.command = entry.command;
  if (Array.isArray(entry.args)) out.args = entry.args.map(String);
  if (isObject(entry.env)) out.env = strings(entry.env);
  if (url !== undefined) out.url = url;
  if (isObject(entry.headers)) out.headers = strings(entry.headers);
  // type/transport only say which of the two it is, which command or url already says.
  out.ignored = Object.keys(entry).filter((k) => !ENTRY_KEYS.includes(k));
  return out;
}

function parseLoosely(text: string): unknown {
  for (const candidate of [text, `{${text}}`, `{${text.replace(/,\s*$/, '')}}`]) {
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // the next shape
    }
  }
  return undefined;
}

function isEntry(value: Record<string, unknown>): boolean {
  return (
    typeof value.command === 'string' ||
    typeof value.url === 'string' ||
    typeof value.serverUrl === 'string' ||
    typeof value.httpUrl === 'string'
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(table: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [k, String(v)]));
}
