import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '@blitz/clock';
import type { ResolvedServer } from '../config/resolve-server.js';
import type { Connector } from '../connection/connector.js';
import { ServerConnection, type ConnectionDeps, type ConnectionEvent } from '../connection/server-connection.js';
import { BlitzError } from '../errors/blitz-error.js';
import { ServerInterest, type UpstreamNotification } from './server-interest.js';
import type { SharedLease, SharedServers } from './shared-servers.js';

export interface ConnectionHolderOptions {
  workspace: string;
  connector: Connector;
  clock: Clock;
  capabilities?: ClientCapabilities;
  prepareClient?: ConnectionDeps['prepareClient'];
  shared?: SharedServers;
  /** An own connection's event. */
  onEvent(connection: ServerConnection, event: ConnectionEvent): void;
  /** A shared connection's event, as this workspace hears it (the pool reports the rest). */
  onSharedEvent(connection: ServerConnection, event: ConnectionEvent): void;
  /** A log message or resource update of either kind of connection. */
  onNotification(connection: ServerConnection, notification: UpstreamNotification): void;
}

/**
 * How a workspace holds each server's connection: its own (made here, stopped when retired)
 * or, for `share = true`, a lease on the shared pool's (let go when retired; the last user
 * stops it), with what the hub's sessions want of it (its interest).
 */
export class ConnectionHolder {
  readonly #opts: ConnectionHolderOptions;
  /** The shared connections this workspace uses, and its lease on each. */
  readonly #leases = new Map<ServerConnection, SharedLease>();
  /** What the hub's sessions want of this workspace's own servers (a shared server's is its lease's). */
  readonly #interests = new Map<ServerConnection, ServerInterest>();

  constructor(opts: ConnectionHolderOptions) {
    this.#opts = opts;
  }

  /** A connection for this server: leased when it is shared and a pool is there, else a new one of this workspace's own. */
  connect(resolved: ResolvedServer): ServerConnection {
    if (resolved.config.share && this.#opts.shared) {
      // The pool emits nothing while leasing, so `lease` is set before any event arrives.
      const lease: SharedLease = this.#opts.shared.lease(resolved, {
        workspace: this.#opts.workspace,
        onEvent: (event) => this.#opts.onSharedEvent(lease.connection, event),
        onNotification: (notification) => this.#opts.onNotification(lease.connection, notification),
      });
      this.#leases.set(lease.connection, lease);
      return lease.connection;
    }
    const prepareClient = this.#opts.prepareClient;
    const connection: ServerConnection = new ServerConnection(resolved, {
      connector: this.#opts.connector,
      clock: this.#opts.clock,
      workspace: this.#opts.workspace,
      ...(this.#opts.capabilities ? { capabilities: this.#opts.capabilities } : {}),
      // The interest's notification handlers go on every new client, before its handshake.
      prepareClient: (client, config, ownerOf) => {
        interest.attach(client);
        prepareClient?.(client, config, ownerOf);
      },
      onEvent: (event) => this.#opts.onEvent(connection, event),
    });
    const interest = new ServerInterest(connection, (notification) => this.#opts.onNotification(connection, notification));
    this.#interests.set(connection, interest);
    return connection;
  }

  /** This workspace's connection goes: a shared one is let go (the last user stops it), an own one stopped. */
  retire(connection: ServerConnection): Promise<void> {
    const lease = this.#leases.get(connection);
    this.#interests.delete(connection);
    if (!lease) return connection.dispose();
    this.#leases.delete(connection);
    return lease.release();
  }

  isShared(connection: ServerConnection): boolean {
    return this.#leases.has(connection);
  }

  /** What the sessions want of a connection this workspace holds; throws for one it no longer does. */
  interest(connection: ServerConnection): ServerInterest {
    const interest = this.#leases.get(connection)?.interest ?? this.#interests.get(connection);
    if (!interest) throw new BlitzError('INTERNAL', `MCP server ${connection.name} is no longer in workspace ${this.#opts.workspace}`);
    return interest;
  }

  /** The interest of one of this workspace's own connections, if it still holds it. */
  ownInterest(connection: ServerConnection): ServerInterest | undefined {
    return this.#interests.get(connection);
  }
}
