import type { DeferredMode, HubSettings } from './settings.js';

/** What the hub knows of a client, by the `clientInfo.name` it sends at initialize (issue 30.3). */
export interface KnownClient {
  /** The client's name for people. */
  readonly label: string;
  /** The most tools it takes, when it stops at a number. */
  readonly maxTools?: number;
  /** What `[hub] deferred = "auto"` means for it, when not the hub's own limit. */
  readonly deferred?: DeferredMode;
  /** Why, in a line. */
  readonly because: string;
}

/**
 * The common clients. Claude Code puts a large tool set behind its own tool search (past about
 * a tenth of its context), so it is listed every tool; VS Code sends at most 128 tools a chat
 * request and Windsurf takes 100 in all. The others have no search of their own: the hub's
 * `search_tools` takes over past `[hub] max_tools`.
 */
export const KNOWN_CLIENTS: Readonly<Record<string, KnownClient>> = {
  'claude-code': { label: 'Claude Code', deferred: 'never', because: 'Claude Code defers large tool sets itself' },
  'Visual Studio Code': { label: 'VS Code', maxTools: 128, because: 'VS Code takes at most 128 tools' },
  'Visual Studio Code - Insiders': { label: 'VS Code Insiders', maxTools: 128, because: 'VS Code takes at most 128 tools' },
  'windsurf-client': { label: 'Windsurf', maxTools: 100, because: 'Windsurf takes at most 100 tools' },
  'codex-mcp-client': { label: 'Codex', because: 'Codex has no tool search of its own' },
  'gemini-cli-mcp-client': { label: 'Gemini CLI', because: 'Gemini CLI has no tool search of its own' },
  opencode: { label: 'opencode', because: 'opencode has no tool search of its own' },
  'cursor-vscode': { label: 'Cursor', because: 'Cursor has no tool search of its own' },
  'claude-ai': { label: 'Claude Desktop', because: 'Claude Desktop has no tool search of its own' },
};

/** How one client is offered the tools: listed up to `maxTools`, the rest behind `search_tools` as `deferred` says. */
export interface ClientSurface {
  readonly deferred: DeferredMode;
  readonly maxTools: number;
  /** Where that comes from: the client's settings, what Blitz knows of it, or `[hub]`. */
  readonly because: string;
}

/**
 * The surface of a client by its `clientInfo.name`. Its own `[hub.clients."NAME"]` wins; then,
 * while `[hub] deferred` is `"auto"` (the hub decides), what Blitz knows of the client; then
 * `[hub]`. An explicit `"always"` or `"never"` is the user's choice for every client.
 */
export function clientSurface(hub: HubSettings, clientName: string | undefined): ClientSurface {
  const own = clientName === undefined ? undefined : hub.clients[clientName];
  const known = clientName === undefined ? undefined : KNOWN_CLIENTS[clientName];
  const knownDeferred = hub.deferred === 'auto' ? known?.deferred : undefined;
  const deferred = own?.deferred ?? knownDeferred ?? hub.deferred;
  const maxTools = own?.maxTools ?? known?.maxTools ?? hub.maxTools;
  const because =
    own?.deferred !== undefined || own?.maxTools !== undefined
      ? `settings: [hub.clients."${clientName}"]`
      : known !== undefined && (knownDeferred !== undefined || known.maxTools !== undefined)
        ? known.because
        : 'settings: [hub]';
  return { deferred, maxTools, because };
}

/** In a line, for `blitz clients` and the log: `every tool listed`, or `up to 100 tools listed, the rest found with search_tools`. */
export function describeSurface(surface: ClientSurface): string {
  if (surface.deferred === 'never') return 'every tool listed';
  if (surface.deferred === 'always') return 'tools found with search_tools (only those marked direct listed)';
  return `up to ${surface.maxTools} tools listed, the rest found with search_tools`;
}
