/** `/v1/workspaces`: the workspaces the daemon hosts and their servers. */
import type { CauseCode, ServerState } from '@blitz/server-state';
import type { ReviewedTool } from './status.js';

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
  /** With `error`: why, in a person's words, and what to do (as in `GlobalServerStatus`). */
  causeCode?: CauseCode;
  cause?: string;
  remedy?: string;
  retryAt?: string;
  /** While `idle`: stopped to save memory after its idle timeout; the next call starts it again. */
  reaped?: true;
  tools: string[];
  warnings: string[];
  pid?: number;
  /** `global` or the project file the server comes from. */
  source: string;
  /** Its connection is shared with other workspaces (`share = true`). */
  shared: boolean;
  /** Its tools held for review since their definitions were pinned (issue 31); absent when none. */
  review?: ReviewedTool[];
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
  /**
   * The tools it lists that clients are not offered: left out of its `tools` allow-list
   * (`inAllowList: false`), or skipped for another reason its warnings give (a name clash).
   */
  otherTools: Array<{ originalName: string; description?: string; inAllowList: boolean }>;
  /** The last lines the server wrote to stderr (stdio servers), secrets masked. */
  stderrTail: string;
}
