import type { ServerEntry } from '@blitz/core';
import type { Where } from './where.js';

export const CLIENT_IDS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'windsurf', 'codex', 'gemini', 'zed', 'opencode'] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

/** One server of a client, in Blitz's `[[mcp.servers]]` fields; or why it cannot be. */
export type ServerMapping =
  | { readonly kind: 'server'; readonly entry: ServerEntry; readonly warnings: readonly string[] }
  | { readonly kind: 'skipped'; readonly reason: string };

/** How Blitz is started by a client: `blitz connect` as a command line with its environment. */
export interface BlitzLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** A client's own command for its MCP servers, used when it keeps its file in memory. */
export interface OwnCommand {
  /** Looked up on PATH. */
  readonly program: string;
  add(name: string, launch: BlitzLaunch): readonly string[];
  remove(name: string): readonly string[];
}

/**
 * Everything Blitz knows about one client: where its files are, how its servers map to and
 * from Blitz's fields, and what the `blitz` entry looks like in it.
 */
export interface ClientSpec {
  readonly id: ClientId;
  readonly title: string;
  /** The `clientInfo.name` it sends at initialize: what picks its tool surface (`[hub.clients."NAME"]`). */
  readonly clientInfoName: string;
  readonly format: 'json' | 'toml';
  /** Where the servers object sits in the document (`mcpServers`, `servers`, `mcp_servers`, …). */
  readonly serversKey: readonly string[];
  /** The user-scope file(s) on this machine, preferred first; the first existing one is used. */
  userFiles(where: Where): readonly string[];
  /** A folder whose existence says the client is installed even without a config file. */
  installedMarker?(where: Where): string;
  /** Project-scoped files, relative to the project folder. */
  readonly projectFiles: readonly string[];
  /**
   * Servers the user file keeps for one project alone (Claude Code's local scope,
   * `projects.<dir>.mcpServers`): where a project's sit, for `import --project`, and which
   * projects have some, for a user-scope import to name what it leaves.
   */
  readonly localScope?: {
    /** Where `dir`'s servers may be kept, in the order to look: the first that holds any is the one. */
    keys(dir: string): ReadonlyArray<readonly string[]>;
    projects(data: Record<string, unknown>): readonly { readonly dir: string; readonly names: readonly string[] }[];
  };
  fromClient(name: string, raw: unknown): ServerMapping;
  /** The client's native entry for `blitz connect`. */
  toClient(launch: BlitzLaunch): Record<string, unknown>;
  /** Past this its file is not read (default `MAX_CLIENT_FILE_BYTES`): Claude Code keeps its history in its config. */
  readonly maxFileBytes?: number;
  /** Set when the client may write its file back from memory while it runs. */
  readonly rewritesWhileRunning?: { readonly command?: OwnCommand };
}
