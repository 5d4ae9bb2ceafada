/**
 * The control API's shapes (DESIGN.md, "Control API"), shared by the daemon that serves
 * them and the CLI and tray that read them. Plain data only: no MCP SDK, no core.
 */

import type { ServerState } from '@blitz/server-state';

export type { ServerState };

export type NoticeKind = 'failed' | 'paused' | 'recovered';

/** Something the user should hear (MCP-33); ids grow, so a poller asks for those after its last. */
export interface Notice {
  id: number;
  /** ISO 8601 */
  time: string;
  server: string;
  kind: NoticeKind;
  message: string;
}

/** A global server as the tray shows it: settings order, state aggregated over open workspaces. */
export interface GlobalServerStatus {
  name: string;
  enabled: boolean;
  transport: 'stdio' | 'http';
  state: ServerState;
  error?: string;
  /** While paused: when the next trial may run (ISO 8601). */
  retryAt?: string;
  /** While needsMoreAccess: the scope the server asked for, which `blitz mcp login` will ask for. */
  scope?: string;
  /** The copies of it running now (set by every daemon since `share`): one per workspace, or one shared by all. */
  copies?: ServerCopy[];
}

/** One running copy of a server — a process (stdio) or a session (HTTP) — and the workspaces it serves. */
export interface ServerCopy {
  /** Workspace roots, in the order they opened. */
  workspaces: string[];
  /** `share = true`: this one copy serves every workspace using the server. */
  shared: boolean;
  state: ServerState;
  pid?: number;
}

export interface StatusResponse {
  version: string;
  pid: number;
  servers: GlobalServerStatus[];
  /** Settings problems, formatted with file and line; non-empty means the last edit was not applied. */
  problems: string[];
  notices: Notice[];
  /** The highest notice id so far, for the next `?after=`. */
  lastNoticeId: number;
  workspaces: number;
}

/** A server as configured: the `[[mcp.servers]]` field names; secret values masked on the way out. */
export type McpServerConfig = { name: string } & Record<string, unknown>;

export interface McpServerConfigList {
  file: string;
  servers: McpServerConfig[];
}

/** What every change through the config API answers once applied (MCP-47's ConfigChange). */
export interface ConfigChange {
  file: string;
  server: string;
  change: 'added' | 'replaced' | 'removed' | 'enabled' | 'disabled';
}

/** What `POST /v1/oauth/NAME/changed` answers: the daemon dropped the server's cached sign-in. */
export interface OAuthChange {
  server: string;
  /** How many workspaces had the server's connection closed (it reconnects at the next use). */
  restarted: number;
}

export interface WorkspaceSummary {
  id: string;
  root: string;
  clients: number;
  trusted: boolean;
  servers: number;
  /** The project's problems: its MCP files not read (a FIFO, a device, past 1 MB, bad JSON), entries skipped. */
  problems: string[];
}

export interface WorkspaceServer {
  name: string;
  state: ServerState;
  error?: string;
  retryAt?: string;
  tools: string[];
  warnings: string[];
  pid?: number;
  /** `global` or the project file the server comes from. */
  source: string;
  /** Its connection is shared with other workspaces (`share = true`). */
  shared: boolean;
}

/** One tool of a server as clients are offered it (a server's detail). */
export interface ExposedTool {
  exposedName: string;
  originalName: string;
  description?: string;
  /** What a call does before it runs: `allow` runs, `ask` asks the user, `deny` refuses (MCP-30/43). */
  approval: 'allow' | 'ask' | 'deny';
  /** Why it is allowed or denied: the rule, or `auto_approve`. */
  why?: string;
}

/** `GET /v1/workspaces/ID/mcp-servers/NAME`: one server in one workspace, for the settings page's detail. */
export interface WorkspaceServerDetail extends WorkspaceServer {
  exposedTools: ExposedTool[];
  /** The last lines the server wrote to stderr (stdio servers), secrets masked. */
  stderrTail: string;
}

/** One problem of a server entry, by field (`field` absent: the entry as a whole). */
export interface FieldProblem {
  field?: string;
  message: string;
  /** `field: message`, as the CLI says it. */
  text: string;
}

/** `POST /v1/config/mcp-servers/validate`: every problem saving the server would meet; empty when it would save. */
export interface ServerProblems {
  problems: FieldProblem[];
}

/** `POST /v1/config/mcp-servers/NAME/test`: connected once on its own and listed its tools, as `blitz doctor --online`. */
export interface ServerTestResult {
  server: string;
  ok: boolean;
  tools: Array<{ name: string; description?: string }>;
  error?: string;
  elapsedMs: number;
}

/** `POST /v1/settings/code`: opens the settings page once, within a minute. */
export interface SettingsCode {
  /** `http://127.0.0.1:PORT/settings/?code=…` */
  url: string;
  /** ISO 8601 */
  expiresAt: string;
}

/** `GET /v1/settings/session` (the page's own session): the token its writes carry in `header`. */
export interface SettingsSession {
  csrfToken: string;
  header: string;
  file: string;
}

export interface ErrorBody {
  code: string;
  reason?: string;
  message: string;
  problems?: string[];
}

/** `$BLITZ_HOME/state/daemon.json` (0600): how to reach the running daemon. */
export interface DaemonState {
  pid: number;
  port: number;
  token: string;
  version: string;
  startedAt: string;
}

/** `GET /v1/environment`: where the daemon looks for the commands of stdio servers. */
export interface DaemonEnvironment {
  /** Its PATH, fixed when it started. */
  path: string;
  /** Its PATHEXT, on Windows. */
  pathext?: string;
  platform: string;
}

/**
 * The `Upgrade` token of `/mcp` for `blitz connect`: after `101 Switching Protocols` the
 * connection carries one JSON-RPC message per line each way (MCP's stdio framing), and the
 * connection is the session.
 */
export const MCP_LINES_PROTOCOL = 'blitz-mcp-lines';

/** The largest message a client may send the hub: a POST body to `/mcp`, or one line. */
export const MAX_CLIENT_MESSAGE_BYTES = 4 * 1024 * 1024;
