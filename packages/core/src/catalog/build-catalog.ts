import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { buildNamedCatalog } from './named-catalog.js';
import type { ServerWarnings } from './server-warnings.js';

/** What one server offers as tools, with the settings that shape them. */
export interface ServerTools {
  server: string;
  prefix?: string;
  /** The server's `tools` setting: original names to keep; undefined keeps every tool. */
  allow?: readonly string[];
  tools: readonly Tool[];
}

/** One tool in the hub's catalog. */
export interface CatalogEntry {
  exposedName: string;
  /** Owner of the tool, for approvals and routing (MCP-21). */
  server: string;
  /** The name the server knows the tool by; calls are forwarded under it. */
  originalName: string;
  /** The server's tool with `name` replaced by `exposedName`; handed to clients as is. */
  tool: Tool;
}

export interface ToolCatalog {
  entries: CatalogEntry[];
  warnings: ServerWarnings;
}

/**
 * The hub's tool catalog from every server's tools, servers in settings order (MCP-20): see
 * {@link buildNamedCatalog} for which tools are kept and which warnings are raised.
 * `builtIns` are the hub's own tool names, which no server's tool may shadow.
 */
export function buildCatalog(servers: readonly ServerTools[], builtIns: readonly string[]): ToolCatalog {
  const sources = servers.map(({ tools, ...rest }) => ({ ...rest, items: tools }));
  const { entries, warnings } = buildNamedCatalog(sources, { noun: 'tool', reserved: builtIns });
  return {
    entries: entries.map(({ item, ...rest }) => ({ ...rest, tool: item })),
    warnings,
  };
}
