import { exposedName, MAX_EXPOSED_NAME_BYTES } from './exposed-name.js';
import { addWarning, type ServerWarnings } from './server-warnings.js';

/** What one server offers of a kind of named item (tools, prompts), with its settings. */
export interface NamedSource<T extends { name: string }> {
  server: string;
  prefix?: string;
  /** A project's server (.mcp.json), which `blitz mcp set` does not edit: the advice differs. */
  project?: boolean;
  /**
   * Original names to keep; undefined keeps every item, `[]` keeps none. A name the server does
   * not offer is no warning here: the caller words it with where it is written (unmatched-settings.ts).
   */
  allow?: readonly string[];
  items: readonly T[];
}

/** One item as the hub offers it, and where it really comes from. */
export interface NamedEntry<T extends { name: string }> {
  exposedName: string;
  server: string;
  /** The name to call the server with (MCP-21): prefixes and shortening are the hub's own. */
  originalName: string;
  /** The server's item with `name` replaced by `exposedName`, ready to hand to clients. */
  item: T;
}

export interface NamedCatalogOptions {
  /** How warnings call the item: `tool`, `prompt`. */
  noun: string;
  /** The hub's own names of this kind; a server's item may not shadow them. */
  reserved: readonly string[];
}

export interface NamedCatalog<T extends { name: string }> {
  entries: NamedEntry<T>[];
  warnings: ServerWarnings;
}

/**
 * Merges the items of servers, given in settings order, into one list under exposed names
 * (MCP-20, MCP-36). Decisions, in the order they are made for each item:
 * 1. not in the server's allow-list: dropped silently — the user asked for that;
 * 2. no name: skipped, since there is nothing to call it by;
 * 3. same exposed name as an earlier item of the same server: the first is kept;
 * 4. exposed name of a built-in: skipped, so the hub's own items always mean what they say;
 * 5. exposed name already taken by an earlier server: the earlier server wins, so adding a
 *    server never takes a name away from one that was already there;
 * 6. otherwise kept; a shortened name is worth a warning (the user may look for the long one),
 *    a sanitized one is not (it stays recognisable).
 */
export function buildNamedCatalog<T extends { name: string }>(
  sources: readonly NamedSource<T>[],
  options: NamedCatalogOptions,
): NamedCatalog<T> {
  const { noun } = options;
  const reserved = new Set(options.reserved);
  const entries: NamedEntry<T>[] = [];
  const warnings: ServerWarnings = new Map();
  const owners = new Map<string, NamedEntry<T>>();

  for (const source of sources) {
    const warn = (text: string): void => addWarning(warnings, source.server, text);
    // A clash a prefix would avoid says so; with a prefix already set that advice is no help.
    const hint = source.prefix ? '' : prefixAdvice(source);
    const allow = source.allow === undefined ? undefined : new Set(source.allow);
    // Exposed name → original name, for everything this server offered, kept or not.
    const claimed = new Map<string, string>();

    for (const item of source.items) {
      const original = item.name;
      if (allow !== undefined && !allow.has(original)) continue;
      if (original === '') {
        warn(`a ${noun} with an empty name is skipped`);
        continue;
      }
      const exposed = exposedName(original, source.prefix);
      const name = exposed.name;
      const sibling = claimed.get(name);
      if (sibling !== undefined) {
        warn(
          sibling === original
            ? `${noun} "${original}" is offered twice; the first is kept`
            : `${noun} "${original}" is skipped: its name "${name}" is already used by ${noun} "${sibling}"`,
        );
        continue;
      }
      claimed.set(name, original);
      if (reserved.has(name)) {
        warn(`${noun} "${original}" is skipped: "${name}" is a built-in ${noun}${hint}`);
        continue;
      }
      const owner = owners.get(name);
      if (owner !== undefined) {
        warn(`${noun} "${original}" is skipped: server "${owner.server}" already offers "${name}"${hint}`);
        continue;
      }
      if (exposed.shortened) {
        warn(`${noun} "${original}" is offered as "${name}": the full name is longer than ${MAX_EXPOSED_NAME_BYTES} bytes`);
      }
      const entry: NamedEntry<T> = { exposedName: name, server: source.server, originalName: original, item: { ...item, name } };
      owners.set(name, entry);
      entries.push(entry);
    }
  }
  return { entries, warnings };
}

/** How to give a server the prefix that would avoid a clash: the command, or where a project's server is written. */
function prefixAdvice(source: { server: string; project?: boolean }): string {
  if (source.project) return `; give server "${source.server}" a prefix in its .mcp.json to offer it`;
  const prefix = source.server.replace(/[^A-Za-z0-9_-]/g, '_');
  return `; give server "${source.server}" a prefix to offer it: blitz mcp set ${source.server} --prefix ${prefix}`;
}
