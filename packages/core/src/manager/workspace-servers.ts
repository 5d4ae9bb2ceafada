import type { Clock } from '@blitz/clock';
import { offersTools } from '../breaker/breaker-status.js';
import { agentMayUse } from '../catalog/agent-may-use.js';
import type { ResolvedServer } from '../config/resolve-server.js';
import type { ServerConnection } from '../connection/server-connection.js';
import type { ConnectionEvent } from '../connection/connection-deps.js';
import { BlitzError } from '../errors/blitz-error.js';
import type { ManagerEvent } from './manager-event.js';
import type { OfferedServer } from './offered-server.js';
import type { ServerInterest, UpstreamNotification } from './server-interest.js';
import { ServerPool, type ClientHooks, type PoolEvent, type PoolLease, type ServerPoolOptions } from './server-pool.js';

export interface WorkspaceServersOptions {
  workspace: string;
  pool: ServerPool;
  /** An event of one of this workspace's connections (a replaced or removed one's are not passed on). */
  onEvent(connection: ServerConnection, event: ConnectionEvent): void;
  onNotification(notification: UpstreamNotification): void;
}

/**
 * One workspace's servers: its lease on each connection from the pool, in settings order,
 * and what the sessions want of each (its interest). What routing, listings and catalogs read
 * of the workspace.
 */
export class WorkspaceServers {
  readonly workspace: string;
  readonly #opts: WorkspaceServersOptions;
  #connections: ServerConnection[] = [];
  readonly #leases = new Map<ServerConnection, PoolLease>();

  constructor(opts: WorkspaceServersOptions) {
    this.workspace = opts.workspace;
    this.#opts = opts;
  }

  /** Every configured server's connection, in settings order. */
  all(): readonly ServerConnection[] {
    return this.#connections;
  }

  /** The connections in force from now on (`update`); those left out are retired by the caller. */
  replace(next: ServerConnection[]): void {
    this.#connections = next;
  }

  includes(connection: ServerConnection): boolean {
    return this.#connections.includes(connection);
  }

  /** The connections the agent is offered now: enabled, not paused, and for this agent. */
  offeredTo(agent: string): ServerConnection[] {
    return this.#connections.filter((c) => !c.config.disabled && offersTools(c.breaker.status()) && agentMayUse(c.config.agents, agent));
  }

  get(name: string): ServerConnection {
    const found = this.#connections.find((c) => c.name === name);
    if (!found)
      throw new BlitzError('NOT_FOUND', `no MCP server named "${name}" in workspace ${this.workspace}`, { reason: 'MCP_SERVER_NOT_FOUND' });
    return found;
  }

  /** A server the agent may use, by name: its config and connection (what the resource tools approve and call). */
  resolve(agent: string, name: string): OfferedServer {
    const connection = this.offeredTo(agent).find((c) => c.name === name);
    if (!connection)
      throw new BlitzError('NOT_FOUND', `no MCP server named "${name}" is offered to ${agent} in workspace ${this.workspace}`, {
        reason: 'MCP_SERVER_NOT_FOUND',
      });
    return { config: connection.config, connection };
  }

  /** What the hub's sessions want of a connection this workspace holds; throws for one it no longer does. */
  interest(connection: ServerConnection): ServerInterest {
    const lease = this.#leases.get(connection);
    if (!lease) throw new BlitzError('INTERNAL', `MCP server ${connection.name} is no longer in workspace ${this.workspace}`);
    return lease.interest;
  }

  /** Whether this connection is shared with other workspaces (`share = true`). */
  isShared(connection: ServerConnection): boolean {
    return this.#leases.get(connection)?.shared ?? false;
  }

  /** A lease on this server's connection; not in force until `replace` puts it there. */
  lease(resolved: ResolvedServer): ServerConnection {
    // The pool emits nothing while leasing, so `lease` is set before any event arrives.
    const lease: PoolLease = this.#opts.pool.lease(resolved, {
      workspace: this.workspace,
      onEvent: (event) => {
        if (this.includes(lease.connection)) this.#opts.onEvent(lease.connection, event);
      },
      onNotification: (notification) => {
        if (this.includes(lease.connection)) this.#opts.onNotification(notification);
      },
    });
    this.#leases.set(lease.connection, lease);
    return lease.connection;
  }

  /** This workspace's use of a connection ends: the last user's release stops it. */
  retire(connection: ServerConnection): Promise<void> {
    const lease = this.#leases.get(connection);
    this.#leases.delete(connection);
    return lease ? lease.release() : connection.dispose();
  }
}

/**
 * A pool for a manager without the daemon's: it shares nothing, and its servers' states,
 * failures and notices become the manager's own events (while the server is the manager's).
 */
export function privatePool(
  opts: Pick<ServerPoolOptions, 'connector' | 'clock'> & ClientHooks & { clock: Clock },
  owns: (connection: ServerConnection) => boolean,
  emit: (event: ManagerEvent) => void,
): ServerPool {
  const { connector, clock, capabilities, prepareClient } = opts;
  const hooks: ClientHooks = { ...(capabilities ? { capabilities } : {}), ...(prepareClient ? { prepareClient } : {}) };
  return new ServerPool({
    connector,
    clock,
    hooks: () => hooks,
    onEvent: ({ server, event }: PoolEvent) => {
      if (!owns(server)) return;
      switch (event.type) {
        case 'status':
          return emit({ type: 'status', status: event.status });
        case 'notice':
          return emit({ type: 'notice', notice: { ...event.notice, time: clock.now() } });
        case 'failure':
          return emit({ type: 'failure', server: event.server, reason: event.reason });
        case 'listChanged':
          return;
        default: {
          const _exhaustive: never = event;
          return _exhaustive;
        }
      }
    },
  });
}
