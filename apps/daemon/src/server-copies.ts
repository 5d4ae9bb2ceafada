import type { ServerConnection, ServerStatus } from '@blitz/core';
import type { ServerCopy } from '@blitz/client';
import type { Workspace } from './workspaces/workspace.js';

/** One connection of a global server, and every open workspace using it (several when it is shared). */
export interface GlobalConnection {
  connection: ServerConnection;
  status: ServerStatus;
  workspaces: string[];
  shared: boolean;
}

/** The global servers' connections across the open workspaces, a shared one once. */
export function globalConnections(workspaces: readonly Workspace[]): GlobalConnection[] {
  const found = new Map<ServerConnection, GlobalConnection>();
  for (const w of workspaces) {
    const states = w.manager.states();
    w.manager.connections().forEach((connection, i) => {
      if (connection.config.source.kind !== 'global') return;
      const seen = found.get(connection);
      if (seen) seen.workspaces.push(w.root);
      else
        found.set(connection, { connection, status: states[i]!, workspaces: [w.root], shared: w.manager.isSharedConnection(connection) });
    });
  }
  return [...found.values()];
}

/**
 * The copies of a server that run now: a connection with a live process, or connected or
 * connecting, or live but short of a scope. An idle or failed connection runs nothing and is no copy.
 */
export function serverCopies(connections: readonly GlobalConnection[]): ServerCopy[] {
  return connections
    .filter(
      (c) =>
        c.connection.pid !== undefined ||
        c.status.state === 'connected' ||
        c.status.state === 'needsMoreAccess' ||
        c.status.state === 'starting',
    )
    .map((c) => ({
      workspaces: [...c.workspaces],
      shared: c.shared,
      state: c.status.state,
      ...(c.connection.pid === undefined ? {} : { pid: c.connection.pid }),
    }));
}
