import type { ServerConnection } from '../connection/server-connection.js';

/** A server that is not running offers no tools: the same key whatever empty list it returns. */
const NOT_RUNNING: readonly never[] = [];

/**
 * What an agent's catalog is built from, by identity: each offered server's connection, its
 * config (replaced by a settings edit) and its listing (a new array at each start or
 * re-listing). Equal inputs build an equal catalog, so the one built before is kept, and its
 * identity tells a session cheaply that nothing it is offered changed.
 */
export function catalogInputs(offered: readonly ServerConnection[], listed: ReadonlyArray<readonly unknown[] | undefined>): unknown[] {
  // `listed[i]`: the server's tools, or its catalog cache listing while it is not up (cached-catalogs.ts), by identity.
  return offered.flatMap((c, i) => [c, c.config, listed[i] ?? NOT_RUNNING]);
}

export function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
