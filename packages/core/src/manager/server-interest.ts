import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type LoggingLevel,
  type LoggingMessageNotification,
  type Implementation,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallUse, SessionRequest } from '../connection/calls-in-flight.js';
import type { ServerConnection } from '../connection/server-connection.js';
import { BlitzError } from '../errors/blitz-error.js';
import { mostVerbose } from './logging-level.js';

/** What a server sent that concerns only some of the hub's sessions. */
export type UpstreamNotification =
  /** `notifications/message`; `during` holds the requests in flight to the server when it came (none: it concerns every session). */
  | { type: 'log'; server: string; params: LoggingMessageNotification['params']; during: readonly SessionRequest[] }
  /** `notifications/resources/updated`, with the sessions subscribed to that URI. */
  | { type: 'resourceUpdated'; server: string; uri: string; sessions: readonly string[] };

/** What a server said of itself at its last handshake. */
export interface ServerAnnouncement {
  capabilities: ServerCapabilities;
  instructions?: string;
  serverInfo?: Implementation;
}

/**
 * What the hub's sessions want of one server connection, kept across its reconnects (the
 * connection itself is not touched: its handlers are set through `prepareClient`): the
 * resources they subscribed to, counted by session, so the server is asked once and let go
 * when the last session leaves; and the logging level each session asked for, the most verbose
 * of which the server is given. A log message goes to the sessions with a request in flight
 * (the connection's `calls`, where each request is registered once). After a reconnect the
 * server is told both again.
 */
export class ServerInterest {
  readonly #connection: ServerConnection;
  readonly #notify: (notification: UpstreamNotification) => void;
  /** The client the server was last told the subscriptions and level over. */
  #synced: Client | undefined;
  #announced: ServerAnnouncement | undefined;
  readonly #subscribers = new Map<string, Set<string>>();
  readonly #levels = new Map<string, LoggingLevel>();
  #sentLevel: LoggingLevel | undefined;
  /** The subscriptions changed: the idle countdown starts again (idle-reaper.ts). */
  readonly #onUse: () => void;

  constructor(connection: ServerConnection, notify: (notification: UpstreamNotification) => void, onUse: () => void = () => undefined) {
    this.#connection = connection;
    this.#notify = notify;
    this.#onUse = onUse;
  }

  /** A request is under way, or a session holds a subscription: the server must stay up (issue 32.1). */
  get busy(): boolean {
    return this.#connection.calls.size > 0 || this.#subscribers.size > 0;
  }

  get server(): string {
    return this.#connection.name;
  }

  /**
   * A new link's client, before its handshake: its notifications come here, until the
   * connection is on another client (a replaced link's last words are not passed on).
   */
  attach(client: Client): void {
    const current = () => {
      const live = this.#connection.client;
      return live === undefined || live === client;
    };
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      if (current()) this.#notify({ type: 'log', server: this.server, params: n.params, during: this.#connection.calls.requests() });
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      const sessions = this.#subscribers.get(n.params.uri);
      if (current() && sessions && sessions.size > 0)
        this.#notify({ type: 'resourceUpdated', server: this.server, uri: n.params.uri, sessions: [...sessions] });
    });
  }

  /**
   * The connection's state changed: once a new link is up, the server is told the
   * subscriptions and level the sessions hold (a restarted server knows neither).
   */
  statusChanged(): void {
    const client = this.#connection.client;
    const capabilities = client?.getServerCapabilities();
    if (!client || client === this.#synced || capabilities === undefined) return;
    this.#synced = client;
    const instructions = client.getInstructions();
    const serverInfo = client.getServerVersion();
    this.#announced = { capabilities, ...(instructions ? { instructions } : {}), ...(serverInfo ? { serverInfo } : {}) };
    this.#sentLevel = undefined;
    if (capabilities.resources?.subscribe) {
      for (const uri of this.#subscribers.keys())
        void this.#request('resources/subscribe', undefined, (c, o) => c.subscribeResource({ uri }, o)).catch(() => undefined);
    }
    void this.#pushLevel().catch(() => undefined);
  }

  /**
   * Takes over what the sessions wanted of the connection this one replaces (a settings edit
   * changed the server): told to the server once it is up.
   */
  adopt(previous: ServerInterest): void {
    for (const [uri, sessions] of previous.#subscribers)
      this.#subscribers.set(uri, new Set([...(this.#subscribers.get(uri) ?? []), ...sessions]));
    for (const [session, level] of previous.#levels) this.#levels.set(session, level);
    this.#onUse();
  }

  /** Capabilities and instructions of the last handshake; kept while the server is stopped. */
  announced(): ServerAnnouncement | undefined {
    return this.#announced;
  }

  /** The session subscribes to a URI of this server: the server is asked for the first session only. */
  async subscribe(uri: string, session: string, signal?: AbortSignal): Promise<void> {
    await this.#connection.start();
    if (!this.#connection.serverCapabilities()?.resources?.subscribe) {
      throw new BlitzError('INVALID_ARGUMENT', `MCP server ${this.server} does not offer resource subscriptions (resource ${uri})`, {
        reason: 'SUBSCRIBE_UNSUPPORTED',
      });
    }
    const sessions = this.#subscribers.get(uri);
    if (sessions) {
      sessions.add(session);
      return;
    }
    const first = new Set([session]);
    this.#subscribers.set(uri, first);
    try {
      await this.#request('resources/subscribe', signal, (c, o) => c.subscribeResource({ uri }, o));
    } catch (err) {
      first.delete(session);
      if (first.size === 0 && this.#subscribers.get(uri) === first) this.#subscribers.delete(uri);
      this.#onUse();
      throw err;
    }
  }

  /** The session lets go of a URI; the last one to let go ends the server's subscription. */
  async unsubscribe(uri: string, session: string, signal?: AbortSignal): Promise<void> {
    const sessions = this.#subscribers.get(uri);
    if (!sessions?.delete(session) || sessions.size > 0) return;
    this.#subscribers.delete(uri);
    this.#onUse();
    // A stopped server holds no subscription: its next link starts without it.
    if (!this.#connection.serverCapabilities()?.resources?.subscribe) return;
    await this.#request('resources/unsubscribe', signal, (c, o) => c.unsubscribeResource({ uri }, o));
  }

  /** Every session's subscriptions here: session id → its URIs. */
  subscriptionsBySession(): Map<string, string[]> {
    const by = new Map<string, string[]>();
    for (const [uri, sessions] of this.#subscribers) for (const session of sessions) by.set(session, [...(by.get(session) ?? []), uri]);
    return by;
  }

  /** The URIs this session is subscribed to here. */
  subscriptionsOf(session: string): string[] {
    return [...this.#subscribers].filter(([, sessions]) => sessions.has(session)).map(([uri]) => uri);
  }

  /** A session's `logging/setLevel`; the server is given the most verbose level any session asked for. */
  async setLevel(session: string, level: LoggingLevel): Promise<void> {
    this.#levels.set(session, level);
    await this.#pushLevel();
  }

  /** A session ended: its subscriptions and level go. */
  async drop(session: string): Promise<void> {
    const left = this.subscriptionsOf(session).map((uri) => this.unsubscribe(uri, session).catch(() => undefined));
    if (this.#levels.delete(session)) left.push(this.#pushLevel().catch(() => undefined));
    await Promise.all(left);
  }

  /**
   * Runs a session's request to this server, known meanwhile as in flight: for its log
   * messages, and with a `caller` for the server's own requests during it (a prompt's or a
   * read's elicitation, MCP-37). `fn` is given the request's key in `calls`.
   */
  async during<T>(use: CallUse, fn: (key: string) => Promise<T>): Promise<T> {
    const call = this.#connection.calls.enter({
      ...(use.request ? { request: use.request } : {}),
      ...(use.caller ? { caller: use.caller } : {}),
    });
    try {
      return await fn(call.key);
    } finally {
      call.leave();
    }
  }

  async #pushLevel(): Promise<void> {
    const level = mostVerbose(this.#levels.values());
    // No level can be taken back in MCP: with no session asking any more, the last one stays.
    if (level === undefined || level === this.#sentLevel || !this.#connection.serverCapabilities()?.logging) return;
    this.#sentLevel = level;
    try {
      await this.#request('logging/setLevel', undefined, (c, o) => c.setLoggingLevel(level, o));
    } catch (err) {
      if (this.#sentLevel === level) this.#sentLevel = undefined;
      throw err;
    }
  }

  #request<T>(method: string, signal: AbortSignal | undefined, fn: (client: Client, options: RequestOptions) => Promise<T>): Promise<T> {
    const timeout = this.#connection.config.timeoutSeconds * 1000;
    return this.#connection.request(`MCP server ${this.server} ${method}`, timeout, signal, (client, s) =>
      fn(client, { timeout, ...(s ? { signal: s } : {}) }),
    );
  }
}
