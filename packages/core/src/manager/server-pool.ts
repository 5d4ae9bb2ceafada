import type { Clock } from '@blitz/clock';
import { launchFingerprint } from '../config/launch-settings.js';
import type { ResolvedServer } from '../config/resolve-server.js';
import { CallsInFlight } from '../connection/calls-in-flight.js';
import type { Connector } from '../connection/connector.js';
import { ServerConnection } from '../connection/server-connection.js';
import type { ConnectionDeps, ConnectionEvent } from '../connection/connection-deps.js';
import { IdleReaper } from './idle-reaper.js';
import { ServerInterest, type UpstreamNotification } from './server-interest.js';

/** What the hub sets on the connections of servers run for one root: a workspace's, or the home for shared ones. */
export type ClientHooks = Pick<ConnectionDeps, 'capabilities' | 'prepareClient'>;

export interface ServerPoolOptions {
  connector: Connector;
  clock: Clock;
  /** Where servers with `share = true` run: the user's home. Without it nothing is shared: each workspace runs its own. */
  home?: string;
  hooks?(root: string): ClientHooks;
  /**
   * `[hub] idle_timeout_seconds`, read when a countdown starts: a server with no request or
   * subscription this long is stopped (issue 32.1); `0` never. A server's own setting wins.
   * Absent, only servers with a setting of their own are stopped.
   */
  idleTimeoutSeconds?(): number;
  /** Every change of every server, once: its state, every failure, its notices (MCP-33). */
  onEvent?(event: PoolEvent): void;
}

/** One change of one server, with the workspaces using it then. */
export interface PoolEvent {
  server: ServerConnection;
  /** The workspace it runs for; for a shared server, every workspace using it (none once the last let go). */
  workspaces: readonly string[];
  shared: boolean;
  event: ConnectionEvent;
}

/** A workspace's manager, as a user of a server: it hears the server's events too. */
export interface PoolUser {
  workspace: string;
  onEvent(event: ConnectionEvent): void;
  /** The server's log messages and resource updates: each workspace passes them to its own sessions. */
  onNotification(notification: UpstreamNotification): void;
}

/** One workspace's use of a server, until `release`. */
export interface PoolLease {
  readonly connection: ServerConnection;
  /** What the sessions of every workspace using it want of the server: one count of subscriptions and levels. */
  readonly interest: ServerInterest;
  readonly shared: boolean;
  /** Ends this use; the last one to end stops the server. A second call does nothing. */
  release(): Promise<void>;
}

interface Entry {
  connection: ServerConnection;
  interest: ServerInterest;
  shared: boolean;
  /** The workspace an own server runs for. */
  workspace: string;
  users: Set<PoolUser>;
  reaper: IdleReaper;
}

/**
 * Every server connection of the daemon, and the only place one is made (DESIGN.md "One pool
 * of servers"). A server is keyed by its launch fingerprint and its workspace, or by the
 * fingerprint alone when `share = true` (issue 10): then one connection — one process, or one
 * HTTP session, one breaker — serves every workspace, and each workspace's manager builds its
 * own catalog from it. An entry lives while a lease holds it and stops when the last lets go;
 * a changed launch setting is another entry, a policy change the same one's (issue 26.1).
 */
export class ServerPool {
  readonly #opts: ServerPoolOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #byConnection = new Map<ServerConnection, Entry>();

  constructor(opts: ServerPoolOptions) {
    this.#opts = opts;
  }

  /** A lease on this server's connection for a workspace; it emits nothing while leasing. */
  lease(resolved: ResolvedServer, user: PoolUser): PoolLease {
    const shared = resolved.config.share === true && this.#opts.home !== undefined;
    const fingerprint = launchFingerprint(resolved);
    const key = shared ? `shared\0${fingerprint}` : `${user.workspace}\0${resolved.config.name}\0${fingerprint}`;
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = this.#create(resolved, shared, user.workspace);
      this.#entries.set(key, entry);
      this.#byConnection.set(entry.connection, entry);
    } else {
      entry.connection.adopt(resolved);
    }
    entry.users.add(user);
    const held = entry;
    let released = false;
    return {
      connection: held.connection,
      interest: held.interest,
      shared,
      release: async () => {
        if (released) return;
        released = true;
        held.users.delete(user);
        if (held.users.size > 0) return;
        // Gone from the map first: a workspace leasing it meanwhile gets a fresh connection.
        if (this.#entries.get(key) === held) this.#entries.delete(key);
        held.reaper.dispose();
        await held.connection.dispose();
        this.#byConnection.delete(held.connection);
      },
    };
  }

  /** Every server with a user, and the workspaces using it. */
  list(): Array<{ connection: ServerConnection; workspaces: string[]; shared: boolean }> {
    return [...this.#entries.values()].map((e) => ({ connection: e.connection, workspaces: workspacesOf(e), shared: e.shared }));
  }

  /** Reports a server's status as it is now: it was just added or replaced, or what is shown of it changed outside the connection. */
  announce(connection: ServerConnection): void {
    const entry = this.#byConnection.get(connection);
    if (entry) this.#report(entry, { type: 'status', status: connection.status(), toolsChanged: false });
  }

  #create(resolved: ResolvedServer, shared: boolean, workspace: string): Entry {
    const root = shared ? this.#opts.home! : workspace;
    const hooks = this.#opts.hooks?.(root) ?? {};
    const prepareClient = hooks.prepareClient;
    // The entry's one register of requests in flight: the connection, the interest and the reaper read it.
    const calls = new CallsInFlight(() => reaper.used());
    const connection: ServerConnection = new ServerConnection(resolved, {
      calls,
      connector: this.#opts.connector,
      clock: this.#opts.clock,
      workspace: root,
      ...(hooks.capabilities ? { capabilities: hooks.capabilities } : {}),
      // The interest's notification handlers go on every new client, before its handshake.
      prepareClient: (client, config, ownerOf) => {
        entry.interest.attach(client);
        prepareClient?.(client, config, ownerOf);
      },
      onEvent: (event) => {
        if (event.type === 'status') {
          entry.interest.statusChanged();
          entry.reaper.statusChanged();
        }
        for (const user of [...entry.users]) user.onEvent(event);
        this.#report(entry, event);
      },
    });
    const users = new Set<PoolUser>();
    const interest = new ServerInterest(
      connection,
      (notification) => {
        for (const user of [...users]) user.onNotification(notification);
      },
      () => reaper.used(),
    );
    const reaper = new IdleReaper({
      connection,
      clock: this.#opts.clock,
      timeoutSeconds: () => connection.config.idleTimeoutSeconds ?? this.#opts.idleTimeoutSeconds?.() ?? 0,
      busy: () => interest.busy,
    });
    const entry: Entry = { connection, interest, shared, workspace, users, reaper };
    return entry;
  }

  #report(entry: Entry, event: ConnectionEvent): void {
    this.#opts.onEvent?.({ server: entry.connection, workspaces: workspacesOf(entry), shared: entry.shared, event });
  }
}

function workspacesOf(entry: Entry): string[] {
  if (!entry.shared) return [entry.workspace];
  return [...new Set([...entry.users].map((u) => u.workspace))];
}
