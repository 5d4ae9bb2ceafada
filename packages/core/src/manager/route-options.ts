import type { Permissions } from '../config/settings.js';
import type { Caller } from '../connection/caller.js';
import type { SessionRequest } from '../connection/calls-in-flight.js';

/** Whom a request is for and, when a hub session made it, which request that was (its log messages go there). */
export interface RouteOptions {
  agent?: string;
  signal?: AbortSignal;
  request?: SessionRequest;
  /** Who asked, for a request whose server may ask its client something meanwhile (`prompts/get`, `resources/read`: MCP-37). */
  caller?: Caller;
  /** The `[permissions]` in force: a request a deny rule covers is refused before its server is asked (issue 25.3). */
  permissions?: Permissions;
}

/** How a listing treats servers still starting. */
export interface ListOptions {
  /**
   * A client's listing ([hub] list_wait_ms): it answers within this many ms with the servers
   * ready by then. Without it a listing waits for every server to start or fail.
   */
  waitMs?: number;
}
