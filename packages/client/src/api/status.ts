/** `GET /v1/status`: what the tray polls — global servers, settings problems and notices. */
import type { CauseCode, ServerState } from '@blitz/server-state';

/** `review`: a server's tools held for review since they were pinned (issue 31); `audit`: the audit log stopped. */
export type NoticeKind = 'failed' | 'paused' | 'recovered' | 'review' | 'audit' | 'sandbox';

/** Something the user should hear (MCP-33); ids grow, so a poller asks for those after its last. */
export interface Notice {
  id: number;
  /** ISO 8601 */
  time: string;
  server: string;
  kind: NoticeKind;
  /** The whole notice in one sentence, as MCP clients hear it. */
  message: string;
  /** A failure's why and what to do, in the words every surface uses (absent for `recovered`). */
  causeCode?: CauseCode;
  cause?: string;
  remedy?: string;
  /** The workspaces (roots) it happened in: one entry per event, however many copies of the server saw it. */
  workspaces?: string[];
  /** A failure (`failed`, `paused`) since fixed — it recovered, connected after an edit, was switched off: when (ISO 8601). */
  resolved?: string;
}

/** A global server as the tray shows it: settings order, state aggregated over open workspaces. */
export interface GlobalServerStatus {
  name: string;
  enabled: boolean;
  transport: 'stdio' | 'http';
  state: ServerState;
  /** The error as raised, whole (a stderr tail included); show `cause` and `remedy` instead. */
  error?: string;
  /** With `error`: why, in a person's words (no server name), and what to do. */
  causeCode?: CauseCode;
  cause?: string;
  remedy?: string;
  /** While paused: when the next trial may run (ISO 8601). */
  retryAt?: string;
  /** While needsMoreAccess: the scope the server asked for, which `blitz mcp login` will ask for. */
  scope?: string;
  /** While `idle`: stopped to save memory after its idle timeout (`idle_timeout_seconds`); the next call starts it again. */
  reaped?: true;
  /** Its copies' warnings, each once (a listing of no tools, one cut short, a setting matching no tool); absent when none. */
  warnings?: string[];
  /** Its tools held for review since their definitions were pinned (issue 31): `blitz mcp review NAME`; absent when none. */
  review?: ReviewedTool[];
  /** The copies of it running now (set by every daemon since `share`): one per workspace, or one shared by all. */
  copies?: ServerCopy[];
}

/** A tool in review: its definition changed since it was pinned, or it is new in a pinned server. */
export interface ReviewedTool {
  tool: string;
  change: 'changed' | 'new';
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
