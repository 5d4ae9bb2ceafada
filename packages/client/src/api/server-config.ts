/** `/v1/config/mcp-servers`: servers as configured and what a change answers. */

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
  /** A saved server the daemon cannot start as it is: its command not on its PATH, no sandbox here (issue 26.5). Saved anyway. */
  warnings?: string[];
}

/** What `POST /v1/oauth/NAME/changed` answers: the daemon dropped the server's cached sign-in. */
export interface OAuthChange {
  server: string;
  /** How many workspaces had the server's connection closed (it reconnects at the next use). */
  restarted: number;
}
