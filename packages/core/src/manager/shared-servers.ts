import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '@blitz/clock';
import type { ResolvedServer } from '../config/resolve-server.js';
import type { Connector } from '../connection/connector.js';
import { ServerConnection, type ConnectionDeps, type ConnectionEvent } from '../connection/server-connection.js';
import { launchFingerprint } from '../config/launch-settings.js';
import { ServerInterest, type UpstreamNotification } from './server-interest.js';

export interface SharedServersOptions {
  connector: Connector;
  clock: Clock;
  /** Where a shared server runs, as a workspace's servers run in it: the user's home. */
  home: string;
  capabilities?: ClientCapabilities;
  /** Handlers for a shared server's own requests (elicitation, sampling, roots). */
  prepareClient?: ConnectionDeps['prepareClient'];
  /**
   * A shared server's events, once each rather than once per workspace — its state, every
   * failure, its notices — with the workspaces using it then.
   */
  onEvent?(event: ConnectionEvent, workspaces: readonly string[]): void;
}

/** A workspace's manager, as a user of a shared server: it hears the server's events too. */
export interface SharedUser {
  workspace: string;
  onEvent(event: ConnectionEvent): void;
  /** The server's log messages and resource updates: each workspace passes them to its own sessions. */
  onNotification?(notification: UpstreamNotification): void;
}

/** One workspace's use of a shared server, until `release`. */
export interface SharedLease {
  readonly connection: ServerConnection;
  /** What every workspace's sessions want of the server: one count of subscriptions and levels. */
  readonly interest: ServerInterest;
  /** Ends this use; the last one to end stops the server. A second call does nothing. */
  release(): Promise<void>;
}

interface Entry {
  connection: ServerConnection;
  interest: ServerInterest;
  users: Set<SharedUser>;
}

/**
 * Servers with `share = true` (issue 10): one connection — one process, or one HTTP session —
 * for every workspace, counted by lease. Its breaker, tools and state are one; each
 * workspace's manager builds its own catalog from it and hears its events. It lives while
 * any workspace holds a lease and stops when the last lets go (a workspace lets go when it
 * closes, after its idle grace, or when its settings no longer run this server this way).
 */
export class SharedServers {
  readonly #opts: SharedServersOptions;
  /** By the server's launch fingerprint: a changed launch setting is another server, with its own process; a policy change is the same one's. */
  readonly #entries = new Map<string, Entry>();

  constructor(opts: SharedServersOptions) {
    this.#opts = opts;
  }

  lease(resolved: ResolvedServer, user: SharedUser): SharedLease {
    const key = launchFingerprint(resolved);
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = this.#create(resolved);
      this.#entries.set(key, entry);
    } else {
      entry.connection.adopt(resolved);
    }
    entry.users.add(user);
    const held = entry;
    let released = false;
    return {
      connection: held.connection,
      interest: held.interest,
      release: async () => {
        if (released) return;
        released = true;
        held.users.delete(user);
        if (held.users.size > 0) return;
        // Gone from the map first: a workspace leasing it meanwhile gets a fresh connection.
        if (this.#entries.get(key) === held) this.#entries.delete(key);
        await held.connection.dispose();
      },
    };
  }

  /** Every shared server with a user, and the workspaces using it. */
  list(): Array<{ connection: ServerConnection; workspaces: string[] }> {
    return [...this.#entries.values()].map((e) => ({ connection: e.connection, workspaces: workspacesOf(e) }));
  }

  #create(resolved: ResolvedServer): Entry {
    const users = new Set<SharedUser>();
    const prepareClient = this.#opts.prepareClient;
    const connection: ServerConnection = new ServerConnection(resolved, {
      connector: this.#opts.connector,
      clock: this.#opts.clock,
      workspace: this.#opts.home,
      ...(this.#opts.capabilities ? { capabilities: this.#opts.capabilities } : {}),
      prepareClient: (client, config, ownerOf) => {
        interest.attach(client);
        prepareClient?.(client, config, ownerOf);
      },
      onEvent: (event) => {
        if (event.type === 'status') interest.statusChanged();
        this.#opts.onEvent?.(event, workspacesOf({ users }));
        for (const user of [...users]) user.onEvent(event);
      },
    });
    const interest = new ServerInterest(connection, (notification) => {
      for (const user of [...users]) user.onNotification?.(notification);
    });
    return { connection, interest, users };
  }
}

function workspacesOf(entry: Pick<Entry, 'users'>): string[] {
  return [...new Set([...entry.users].map((u) => u.workspace))];
}
