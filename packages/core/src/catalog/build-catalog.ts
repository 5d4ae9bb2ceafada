import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { buildNamedCatalog } from './named-catalog.js';
import type { Exposure } from '../config/server-config.js';
import type { ServerWarnings } from './server-warnings.js';
import { toolExposure, type ToolExposure } from './tool-exposure.js';
import { unmatchedSettings, type UnmatchedSetting } from './unmatched-settings.js';

/** What one server offers as tools, with the settings that shape them. */
export interface ServerTools {
  server: string;
  prefix?: string;
  /** A project's server (.mcp.json): see NamedSource. */
  project?: boolean;
  /** The server's `tools` setting: original names to keep; undefined keeps every tool. */
  allow?: readonly string[];
  /** The server's `exposure` and `tool_exposure` settings (issue 16). */
  exposure?: Exposure;
  toolExposure?: Readonly<Record<string, Exposure>>;
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
  /** Listed, deferred, or left to the hub (`default`); hidden tools are not in the catalog. */
  exposure: Exclude<ToolExposure, 'hidden'>;
}

export interface ToolCatalog {
  entries: CatalogEntry[];
  warnings: ServerWarnings;
  /**
   * Each server's `tools` entries and `tool_exposure` keys that match none of its tools, once it
   * has listed them: a warning each, worded by the caller with where the setting is written
   * (unmatchedSettingWarning), which may change while the catalog does not.
   */
  unmatched: ReadonlyMap<string, readonly UnmatchedSetting[]>;
}

/**
 * The hub's tool catalog from every server's tools, servers in settings order (MCP-20): see
 * {@link buildNamedCatalog} for which tools are kept and which warnings are raised.
 * `builtIns` are the hub's own tool names, which no server's tool may shadow.
 */
export function buildCatalog(servers: readonly ServerTools[], builtIns: readonly string[]): ToolCatalog {
  const sources = servers.map(({ tools, exposure: _e, toolExposure: _t, ...rest }) => ({ ...rest, items: tools }));
  const { entries, warnings } = buildNamedCatalog(sources, { noun: 'tool', reserved: builtIns });
  const byServer = new Map(servers.map((s) => [s.server, s]));
  const unmatched = new Map<string, UnmatchedSetting[]>();
  for (const s of servers) {
    // Before the server has answered, every name and pattern would look unmatched.
    if (s.tools.length === 0) continue;
    const found = unmatchedSettings(
      s.tools.map((t) => t.name),
      s.allow,
      s.toolExposure,
    );
    if (found.length > 0) unmatched.set(s.server, found);
  }
  const kept: CatalogEntry[] = [];
  for (const { item, ...rest } of entries) {
    const s = byServer.get(rest.server);
    const exposure = toolExposure(rest.originalName, s?.exposure, s?.toolExposure);
    if (exposure !== 'hidden') kept.push({ ...rest, tool: item, exposure });
  }
  return { entries: kept, warnings, unmatched };
}
