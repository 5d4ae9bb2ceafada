import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** The hub's sessions that serve a 2026-07-28 client (modern/): such a client is asked for its roots in-band. */
const MODERN = new WeakSet<Server>();

export function markModern(session: Server): void {
  MODERN.add(session);
}

export function speaksModern(session: Server): boolean {
  return MODERN.has(session);
}
