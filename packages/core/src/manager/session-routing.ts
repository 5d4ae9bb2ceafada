import type { CompleteRequest, CompleteResult, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { MAIN_AGENT } from '../catalog/agent-may-use.js';
import { promptPermissionKey, refuseIfDenied, resourcePermissionKey } from '../approval/approval-policy.js';
import { BlitzError, isBlitzError } from '../errors/blitz-error.js';
import { askCompletion } from './completion.js';
import type { CallUse } from '../connection/calls-in-flight.js';
import type { RouteOptions } from './route-options.js';
import type { CachedCatalogs } from './cached-catalogs.js';
import type { PromptsAndResources } from './prompts-and-resources.js';
import type { ServerAnnouncement } from './server-interest.js';
import type { WorkspaceServers } from './workspace-servers.js';

/** One offered server as the hub introduces it: its name, its tools' prefix, what it said of itself when last connected. */
export interface IntroducedServer {
  name: string;
  prefix?: string;
  announced?: ServerAnnouncement;
}

/** What session routing reads of its workspace. */
export interface RoutingScope {
  servers: WorkspaceServers;
  lists: PromptsAndResources;
  cached: CachedCatalogs;
  /** Starts the agent's servers and waits for them as a listing does, at most `waitMs`. */
  listable(agent: string, waitMs: number): Promise<unknown>;
}

/**
 * What the hub's sessions ask of one workspace beyond tools (issue 13): completions routed to
 * their owner, resource subscriptions and logging levels kept per session, and what a new
 * session is told of the servers it is offered.
 */
export class SessionRouting {
  readonly #scope: RoutingScope;

  constructor(scope: RoutingScope) {
    this.#scope = scope;
  }

  /**
   * `completion/complete`, routed to the owner: a prompt by its exposed name (asked under its
   * original one), a resource template by its URI template. An unknown one is refused, not
   * forwarded; a server that offers no completions answers none. At most 100 values.
   */
  async complete(params: CompleteRequest['params'], opts: RouteOptions = {}): Promise<CompleteResult> {
    const agent = opts.agent ?? MAIN_AGENT;
    const { ref } = params;
    let server: string;
    let asked: CompleteRequest['params']['ref'];
    if (ref.type === 'ref/prompt') {
      const entry = (await this.#scope.lists.listPrompts(agent)).find((p) => p.exposedName === ref.name);
      if (!entry) throw new BlitzError('NOT_FOUND', `unknown prompt ${ref.name}`, { reason: 'PROMPT_NOT_FOUND' });
      server = entry.server;
      asked = { ...ref, name: entry.originalName };
      refuseIfDenied(
        opts.permissions,
        promptPermissionKey(server, entry.originalName),
        `completing prompt ${ref.name} (MCP server "${server}")`,
      );
    } else {
      const owner =
        (await this.#scope.lists.listResourceTemplates(agent)).find((t) => t.uriTemplate === ref.uri)?.server ??
        (await this.#scope.lists.listResources(agent)).find((r) => r.uri === ref.uri)?.server;
      if (owner === undefined)
        throw new BlitzError('NOT_FOUND', `no MCP server offers resource template ${ref.uri}`, { reason: 'RESOURCE_NOT_FOUND' });
      server = owner;
      asked = ref;
      refuseIfDenied(opts.permissions, resourcePermissionKey(server), `completing resource template ${ref.uri} (MCP server "${server}")`);
    }
    const connection = this.#scope.servers.get(server);
    return this.#scope.servers
      .interest(connection)
      .during(requestOf(opts), () => askCompletion(connection, { ...params, ref: asked }, opts.signal));
  }

  /** `resources/subscribe` for a session, to the URI's owner; counted per session, so the server is asked once. */
  async subscribe(uri: string, session: string, opts: RouteOptions = {}): Promise<string> {
    const owner = await this.#subscriptionOwner(uri, opts.agent ?? MAIN_AGENT);
    refuseIfDenied(opts.permissions, resourcePermissionKey(owner), `subscribing to ${uri} (MCP server "${owner}")`);
    const connection = this.#scope.servers.get(owner);
    const interest = this.#scope.servers.interest(connection);
    await interest.during(requestOf(opts), () => interest.subscribe(uri, session, opts.signal));
    return owner;
  }

  /** `resources/unsubscribe`: the session lets go; the server's subscription ends with the last session's. */
  async unsubscribe(uri: string, session: string, opts: RouteOptions = {}): Promise<void> {
    for (const connection of this.#scope.servers.all()) {
      const interest = this.#scope.servers.interest(connection);
      if (interest.subscriptionsOf(session).includes(uri))
        await interest.during(requestOf(opts), () => interest.unsubscribe(uri, session, opts.signal));
    }
  }

  /** A session's `logging/setLevel`, passed to every server its agent may use (the most verbose level any session asked for). */
  async setLogLevel(session: string, level: LoggingLevel, agent = MAIN_AGENT): Promise<void> {
    await Promise.all(
      this.#scope.servers.offeredTo(agent).map((c) =>
        this.#scope.servers
          .interest(c)
          .setLevel(session, level)
          .catch(() => undefined),
      ),
    );
  }

  /** A session ended: its subscriptions and logging level go. */
  async dropSession(session: string): Promise<void> {
    await Promise.all(this.#scope.servers.all().map((c) => this.#scope.servers.interest(c).drop(session)));
  }

  /** Whether this agent is offered this server now: its messages may reach the agent's sessions. */
  offers(agent: string, server: string): boolean {
    return this.#scope.servers.offeredTo(agent).some((c) => c.name === server);
  }

  /** The servers offered to the agent, in settings order, with what each said of itself when last connected. */
  introduced(agent = MAIN_AGENT): IntroducedServer[] {
    return this.#scope.servers.offeredTo(agent).map((c) => {
      const announced = this.#scope.servers.interest(c).announced() ?? this.#scope.cached.announced(c);
      return { name: c.name, ...(c.config.prefix === undefined ? {} : { prefix: c.config.prefix }), ...(announced ? { announced } : {}) };
    });
  }

  /**
   * Starts the agent's servers and waits for them as a listing does, at most `waitMs` (one
   * whose start failed less than a pause ago is not waited for): what is known of them then
   * (capabilities, instructions) is what a new session is told. Never fails.
   */
  async settle(agent: string, waitMs: number): Promise<void> {
    await this.#scope.listable(agent, waitMs);
  }

  /**
   * Whom a subscription to `uri` goes to: the server that lists it or whose template matches
   * it, else the one offered server that takes subscriptions — a server may watch a URI it
   * does not list (server-everything takes any). With several such servers the owner cannot
   * be told, and the URI is refused as unknown.
   */
  async #subscriptionOwner(uri: string, agent: string): Promise<string> {
    try {
      return await this.#scope.lists.resourceOwner(uri, agent);
    } catch (err) {
      if (!isBlitzError(err, 'NOT_FOUND')) throw err;
      const takers = this.#scope.servers.offeredTo(agent).filter((c) => c.serverCapabilities()?.resources?.subscribe);
      if (takers.length === 1) return takers[0]!.name;
      throw err;
    }
  }
}

/** A completion or subscription in flight, for its log messages only: no server asks its client anything during one. */
function requestOf(opts: RouteOptions): CallUse {
  return opts.request ? { request: opts.request } : {};
}
