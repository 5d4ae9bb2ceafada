/** How Blitz reaches one MCP server. */
export type ServerTransport =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers: Record<string, string> };

/** A pre-registered OAuth client and sign-in options (`[mcp.servers.oauth]`). */
export interface OAuthConfig {
  clientId?: string;
  /** An environment reference such as `${GITHUB_CLIENT_SECRET}`, expanded like other values. */
  clientSecret?: string;
  scopes?: string[];
  callbackPort?: number;
  authorizationServer?: string;
  /** `client_metadata_url`: an HTTPS client ID metadata document, used as the client ID where the authorization server supports it. */
  clientMetadataUrl?: string;
}

/**
 * How a server's tools reach a client (issue 16): `direct` in `tools/list` always,
 * `deferred` found through `search_tools` only, `hidden` nowhere (the server still runs).
 */
export const EXPOSURES = ['direct', 'deferred', 'hidden'] as const;
export type Exposure = (typeof EXPOSURES)[number];

/** A `tool_exposure` key: a tool's original name, `*` matching any run of characters. */
export const TOOL_EXPOSURE_KEY = /^[A-Za-z0-9._*-]+$/;

/** Where a server's definition comes from. */
export type ServerSource = { kind: 'global'; file: string } | { kind: 'project'; file: string };

/**
 * One MCP server as Blitz runs it: a validated `[[mcp.servers]]` entry (or project
 * `.mcp.json` entry) with Codex aliases folded in and defaults applied.
 */
export interface ServerConfig {
  name: string;
  transport: ServerTransport;
  /** Allow-list of the server's original tool names; undefined offers every tool. */
  tools?: string[];
  autoApprove: boolean;
  /** stdio only: run in the OS sandbox. */
  sandbox: boolean;
  /** stdio, sandboxed: absolute paths the server may write besides its own temp folder (`~` expanded once resolved). */
  sandboxWrite?: string[];
  prefix?: string;
  /** `exposure`; unset lets the hub decide (`[hub] deferred`). */
  exposure?: Exposure;
  /** `tool_exposure`: by original name or `*` pattern; the exact name wins, then the longest pattern. */
  toolExposure?: Record<string, Exposure>;
  /** Empty: offered to the `main` agent only; `["*"]`: every agent. */
  agents: string[];
  timeoutSeconds: number;
  startupTimeoutSeconds: number;
  /** `idle_timeout_seconds`: stopped after this long with no call, subscription or stream; `0` never. Unset: `[hub]`'s. */
  idleTimeoutSeconds?: number;
  disabled: boolean;
  /** Forward the server's sampling requests to the calling client. */
  sampling: boolean;
  /**
   * What the server's `roots/list` answers: undefined = the workspace; `false` = the roots
   * capability is not offered (a server then keeps the folders of its own arguments); a
   * list = those absolute paths (`~` expanded once resolved).
   */
  roots?: string[] | false;
  /** One process (or session) serves every workspace, instead of one per workspace. Global servers only. */
  share: boolean;
  /** `pin = false`: its tool definitions are never pinned nor held for review (issue 31); unset pins them. */
  pin?: boolean;
  oauth?: OAuthConfig;
  source: ServerSource;
}

export const DEFAULT_TIMEOUT_SECONDS = 300;
export const DEFAULT_STARTUP_TIMEOUT_SECONDS = 30;
