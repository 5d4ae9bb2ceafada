import type { ServerConnection } from '../connection/server-connection.js';

/** A server that is not running offers no tools: the same key whatever empty list it returns. */
const NOT_RUNNING: readonly never[] = [];

/**
 * What an agent's catalog is built from, by identity: each offered server's connection, its
 * config (replaced by a settings edit) and its listing (a new array at each start or
 * re-listing). Equal inputs build an equal catalog, so the one built before is kept, and its
 * identity tells a session cheaply that nothing it is offered changed.
 */
export function catalogInputs(offered: readonly ServerConnection[], cached: (c: ServerConnection) => readonly unknown[] | undefined = () => undefined): unknown[] {
  // A server not up yet may be listed from the catalog cache (cached-catalogs.ts): that listing, by identity.
  return offered.flatMap((c) => [c, c.config, c.ready ? c.currentTools() : (cached(c) ?? NOT_RUNNING)]);
}

export function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
