import {
  type CallToolResult,
  type ClientCapabilities,
  type CompleteRequest,
  type CompleteResult,
  type GetPromptResult,
  type LoggingLevel,
  type ReadResourceResult,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { PromptEntry } from '../catalog/build-prompt-catalog.js';
import type { ResourceEntry } from '../catalog/build-resource-catalog.js';
import { offersTools } from '../breaker/breaker-status.js';
import { agentMayUse, MAIN_AGENT } from '../catalog/agent-may-use.js';
import type { CatalogEntry } from '../catalog/build-catalog.js';
import { unmatchedField, unmatchedSettingWarning } from '../catalog/unmatched-settings.js';
import type { Catalog } from '../catalog/catalog.js';
import type { Clock } from '@blitz/clock';
import { hasErrors, type Problem } from '../config/problem.js';
import { launchFingerprint } from '../config/launch-settings.js';
import type { ResolvedServer } from '../config/resolve-server.js';
import type { ServerConfig } from '../config/server-config.js';
import type { Connector } from '../connection/connector.js';
import type { CallOptions, ConnectionDeps, ConnectionEvent, ServerConnection } from '../connection/server-connection.js';
import type { ServerStatus } from '../connection/server-status.js';
import { BlitzError } from '../errors/blitz-error.js';
import type { CatalogCache } from '../catalog-cache/catalog-cache.js';
import type { PinReviewMode } from '../config/settings.js';
import type { PinStore, ToolReview } from '../pins/pin-store.js';
import type { OfferedServer, ResolvedTool } from './offered-server.js';
import { PinnedTools } from './pinned-tools.js';
import type { ListOptions, RouteOptions } from './route-options.js';
import { AgentCatalogs } from './agent-catalogs.js';
import { CachedCatalogs } from './cached-catalogs.js';
import { listWait } from './list-wait.js';
import type { ManagerEvent } from './manager-event.js';
import { PromptsAndResources } from './prompts-and-resources.js';
import { StartSoon } from './start-soon.js';
import { serverFingerprint } from './server-fingerprint.js';
import type { ServerInterest, SessionRequest } from './server-interest.js';
import { SessionRouting, type IntroducedServer } from './session-routing.js';
import { ServerPool, type PoolEvent, type PoolLease } from './server-pool.js';

export interface ManagerOptions {
  workspace: string;
  connector: Connector;
  clock: Clock;
  /** The hub's own tool names; no server tool may shadow them (MCP-20). */
  builtIns?: readonly string[];
  capabilities?: ClientCapabilities;
  prepareClient?: ConnectionDeps['prepareClient'];
  onEvent?(event: ManagerEvent): void;
  /**
   * The daemon's pool, where every server connection is made (`share = true` ones once for
   * every workspace). It reports every server's state, failures and notices itself; this
   * manager hears only what changes its catalog. Without it the manager runs a pool of its own,
   * shares nothing, and reports those events as its own (`connector`, `capabilities` and
   * `prepareClient` are for that pool).
   */
  pool?: ServerPool;
  /**
   * The daemon's catalog cache, while `[hub] catalog_cache` is on: a server not up yet whose
   * launch config is cached is listed from it at once (cached-catalogs.ts).
   */
  catalogCache?: () => CatalogCache | undefined;
  /**
   * The daemon's pinned tool definitions (issue 31): a server's first listing pins its tools;
   * a tool whose definition changed since, or new since, is held for review.
   */
  pins?: () => PinStore | undefined;
  /** `[hub] pin_review`: a tool in review is not offered (`hide`, the default) or every call of it is asked (`ask`). */
  pinReview?: () => PinReviewMode;
  /** The line of a server's field in the file it was read from, where the settings loader knows it: a warning found once the server runs names it. */
  settingLine?(config: ServerConfig, field: string): number | undefined;
}

/** What `update` is given: a workspace's effective servers and any problems found loading them. */
export interface ServerSet {
  servers: readonly ResolvedServer[];
  problems?: readonly Problem[];
}

/**
 * The MCP servers of one workspace (DESIGN.md "manager"): starts them lazily and in
 * parallel, keeps the tool catalog, routes calls, and applies settings changes without
 * touching servers whose settings did not change (MCP-45).
 */
export class Manager {
  readonly workspace: string;
  readonly #opts: ManagerOptions;
  #connections: ServerConnection[] = [];
  #closed = false;
  /** Where the connections come from (server-pool.ts). */
  readonly #pool: ServerPool;
  /** This workspace's lease on each connection, with what the sessions want of it. */
  readonly #leases = new Map<ServerConnection, PoolLease>();
  /** What the catalog cache answers for servers not up yet. */
  readonly #cached: CachedCatalogs;
  /** Which listed tools are held for review (pinned-tools.ts). */
  readonly #pins: PinnedTools;
  /** The tool catalog of each agent, with the warnings found building it (agent-catalogs.ts). */
  readonly #catalogs: AgentCatalogs;
  /** Starts the servers the cache answered for, once the client has read its answers (start-soon.ts). */
  readonly #startSoon: StartSoon;
  /** Prompts and resources across the servers (prompts-and-resources.ts). */
  readonly #lists: PromptsAndResources;
  /** Completions, subscriptions, logging levels and introductions for the hub's sessions (session-routing.ts). */
  readonly #routing = new SessionRouting({
    connections: () => this.#connections,
    offeredTo: (agent) => this.#offeredTo(agent),
    connection: (name) => this.#get(name),
    interest: (connection) => this.#interest(connection),
    listPrompts: (agent) => this.listPrompts(agent),
    listResources: (agent) => this.listResources(agent),
    listResourceTemplates: (agent) => this.listResourceTemplates(agent),
    resourceOwner: (uri, agent) => this.#lists.resourceOwner(uri, agent),
    listable: (agent, waitMs) => this.#listable(agent, waitMs),
    announced: (connection) => this.#interest(connection).announced() ?? this.#cached.announced(connection),
  });

  constructor(opts: ManagerOptions) {
    this.workspace = opts.workspace;
    this.#opts = opts;
    this.#pool =
      opts.pool ??
      new ServerPool({
        connector: opts.connector,
        clock: opts.clock,
        hooks: () => ({
          ...(opts.capabilities ? { capabilities: opts.capabilities } : {}),
          ...(opts.prepareClient ? { prepareClient: opts.prepareClient } : {}),
        }),
        onEvent: (event) => this.#ownPoolEvent(event),
      });
    this.#cached = new CachedCatalogs(opts.catalogCache ?? (() => undefined), opts.workspace);
    this.#pins = new PinnedTools({
      store: opts.pins ?? (() => undefined),
      mode: opts.pinReview ?? (() => 'hide'),
      workspace: opts.workspace,
      onReview: (connection, tools) => this.#inReview(connection, tools),
    });
    this.#catalogs = new AgentCatalogs({
      offeredTo: (agent) => this.#offeredTo(agent),
      cached: this.#cached,
      builtIns: opts.builtIns ?? [],
      pinned: (connection, tools) => this.#pins.offered(connection, tools),
    });
    this.#lists = new PromptsAndResources({
      listable: (agent, waitMs) => this.#listable(agent, waitMs),
      resolveServer: (agent, name) => this.resolveServer(agent, name),
      connection: (name) => this.#get(name),
      interest: (connection) => this.#interest(connection),
      cached: this.#cached,
    });
    this.#startSoon = new StartSoon((c) => !this.#closed && !c.config.disabled && this.#connections.includes(c), opts.clock);
  }

  /**
   * Applies a new set of servers (MCP-45): unchanged ones keep running, changed ones
   * restart (only those whose launch settings changed: launch-settings.ts; a policy change
   * is taken in place), removed or disabled ones stop, new ones start at the next listing. A set with
   * errors changes nothing; its problems are returned.
   */
  async update(set: ServerSet): Promise<{ problems: readonly Problem[]; changed: string[] }> {
    const problems = set.problems ?? [];
    if (hasErrors(problems)) return { problems, changed: [] };
    const names = new Set<string>();
    for (const s of set.servers) {
      if (names.has(s.config.name)) throw new BlitzError('INVALID_ARGUMENT', `MCP server "${s.config.name}" is defined twice`);
      names.add(s.config.name);
    }

    const old = new Map(this.#connections.map((c) => [c.name, c]));
    const next: ServerConnection[] = [];
    const retired: ServerConnection[] = [];
    const changed: string[] = [];
    for (const resolved of set.servers) {
      const existing = old.get(resolved.config.name);
      old.delete(resolved.config.name);
      if (existing && serverFingerprint(existing.resolved) === serverFingerprint(resolved)) {
        next.push(existing);
        continue;
      }
      changed.push(resolved.config.name);
      // Only the hub's policy changed (approval, allow-list, prefix, agents, timeouts): the process stays (issue 26.1).
      if (existing && launchFingerprint(existing.resolved) === launchFingerprint(resolved)) {
        existing.adopt(resolved);
        next.push(existing);
        continue;
      }
      const fresh = this.#connect(resolved);
      next.push(fresh);
      if (!existing) continue;
      retired.push(existing);
      // A server restarted by a settings edit keeps its sessions' subscriptions and levels.
      this.#interest(fresh).adopt(this.#interest(existing));
    }
    const ended: Array<Extract<ManagerEvent, { type: 'subscriptionsEnded' }>> = [];
    for (const removed of old.values()) {
      retired.push(removed);
      changed.push(removed.name);
      const subscriptions = [...this.#interest(removed).subscriptionsBySession()].map(([session, uris]) => ({ session, uris }));
      if (subscriptions.length > 0) ended.push({ type: 'subscriptionsEnded', server: removed.name, subscriptions });
    }
    this.#connections = next;
    this.#catalogs.changed();
    await Promise.all(retired.map((c) => this.#retire(c)));
    for (const event of ended) this.#emit(event);
    if (changed.length > 0) {
      const touched = new Set(changed);
      for (const c of next.filter((n) => touched.has(n.name))) this.#pool.announce(c);
      this.#catalogChanged();
    }
    return { problems, changed };
  }

  /**
   * Starts these servers now, in the background, each bounded by its startup timeout: a
   * server switched on or added while clients are connected must not wait for a listing
   * nobody will make. Once its tools are known the catalog changes (clients hear
   * `list_changed`); a failed start is a breaker failure, so it becomes a notice.
   */
  startInBackground(names: readonly string[]): void {
    const wanted = new Set(names);
    for (const c of this.#connections) {
      if (wanted.has(c.name) && !c.config.disabled) void c.tools().catch(() => undefined);
    }
  }

  /** Every configured server, disabled ones included, in settings order (MCP-41/47). */
  states(): ServerStatus[] {
    // A server's catalog warnings depend on the workspace's other servers (clashes), so they
    // are the main agent's catalog's, not the connection's (a shared one serves other workspaces).
    const { warnings, unmatched } = this.#catalogs.of(MAIN_AGENT);
    return this.#connections.map((c) => {
      const status = c.status();
      const worded = (unmatched.get(c.name) ?? []).map((u) =>
        unmatchedSettingWarning(u, c.config.source.file, this.#opts.settingLine?.(c.config, unmatchedField(u))),
      );
      const more = [...(warnings.get(c.name) ?? []), ...worded];
      const held = this.#pins.held(c);
      const review = held.size > 0 ? { review: [...held].map(([tool, change]) => ({ tool, change })) } : {};
      return more.length > 0 ? { ...status, ...review, warnings: [...status.warnings, ...more] } : { ...status, ...review };
    });
  }

  /** Whether this server's connection is shared with other workspaces (`share = true`). */
  isShared(name: string): boolean {
    const found = this.#connections.find((c) => c.name === name);
    return found !== undefined && this.isSharedConnection(found);
  }

  /** `isShared` for a connection in hand: no search, for callers walking every connection. */
  isSharedConnection(connection: ServerConnection): boolean {
    return this.#leases.get(connection)?.shared ?? false;
  }

  /** Stops a server; it starts afresh at the next listing (MCP-47). A shared server stops for every workspace. */
  async restart(name: string): Promise<void> {
    await this.#get(name).restart();
    this.#catalogChanged();
  }

  /**
   * The tools an agent is offered, connecting every server it may use first, in parallel
   * (MCP-10). A failing or slow server (bounded by its startup timeout) leaves the others be.
   */
  async listTools(agent = MAIN_AGENT, opts: ListOptions = {}): Promise<CatalogEntry[]> {
    await this.#listable(agent, opts.waitMs);
    return this.catalog(agent).list().slice();
  }

  async #listable(agent: string, waitMs: number | undefined): Promise<ServerConnection[]> {
    return listWait(this.#offeredTo(agent), waitMs, this.#opts.clock, {
      answers: (c) => this.#cached.servable(c) !== undefined,
      startSoon: (c) => this.#startSoon.add(c),
    });
  }

  /**
   * An identity that changes only when the prompts and resources of the agent's servers may
   * have: a server came, went, (re)started or re-listed. A server answered from the catalog
   * cache whose first start lists what the cache said keeps it (a session is not told
   * prompts/resources list_changed at every cold start); the server's own changes come as
   * `listChanged`.
   */
  listsKey(agent = MAIN_AGENT): object {
    return this.#catalogs.of(agent).lists;
  }

  /** The catalog from what is connected now, without connecting anything. */
  catalog(agent = MAIN_AGENT): Catalog<CatalogEntry> {
    return this.#catalogs.of(agent).catalog;
  }

  /**
   * Finds a tool call's route once (MCP-21): the catalog entry of the name clients see, and
   * its server's config and connection. A client may call a tool it learned of before a
   * restart, or before anything connected: an unknown name lists once, then is looked up again.
   */
  async resolveTool(agent: string, exposedName: string): Promise<ResolvedTool> {
    const entry =
      this.catalog(agent).byExposedName(exposedName) ?? (await this.listTools(agent)).find((e) => e.exposedName === exposedName);
    if (!entry)
      throw (
        this.#pausedRefusal(agent, exposedName) ??
        this.#reviewRefusal(agent, exposedName) ??
        new BlitzError('NOT_FOUND', `unknown tool ${exposedName}`, { reason: 'TOOL_NOT_FOUND' })
      );
    const connection = this.#get(entry.server);
    return { entry, config: connection.config, connection };
  }

  /**
   * A resolved tool checked against its server's pins (issue 31) before it is approved and
   * called: a server listed from the catalog cache, or not started yet, is started first (as
   * its call would), so the definition checked is the one it lists now. Held for review, the
   * tool is refused (`[hub] pin_review = "hide"`) or marked to be asked (`"ask"`).
   */
  async admitTool(tool: ResolvedTool): Promise<ResolvedTool> {
    const { connection, entry } = tool;
    if (!this.#pins.watches(connection)) return tool;
    const tools = connection.ready ? connection.currentTools() : await connection.tools();
    this.#pins.offered(connection, tools);
    const change = this.#pins.held(connection).get(entry.originalName);
    if (change === undefined) return tool;
    if (this.#pins.mustAsk(connection, entry.originalName)) return { ...tool, inReview: true };
    throw reviewRefusal(entry.exposedName, entry.server, change);
  }

  /** The tools of a server in review, each with its changes field by field (`blitz mcp review`). */
  reviews(name: string): ToolReview[] {
    const connection = this.#get(name);
    return this.#opts.pins?.()?.reviews(this.#pins.key(connection).id) ?? [];
  }

  /** Pins the definitions of a server's tools in review (these only, when named); returns the tools pinned. */
  acceptReview(name: string, tools?: readonly string[]): string[] {
    const connection = this.#get(name);
    const store = this.#opts.pins?.();
    if (!store) return [];
    const accepted = store.accept(this.#pins.key(connection).id, tools);
    if (accepted.length > 0) this.pinsChanged();
    return accepted;
  }

  /** The pin store changed (a review accepted, here or in another workspace): catalogs and statuses follow. */
  pinsChanged(): void {
    this.#catalogs.changed();
    for (const c of this.#connections) if (c.ready) this.#pool.announce(c);
    this.#catalogChanged();
  }

  /** A server the agent may use, by name: its config and connection (what the resource tools approve and call). */
  resolveServer(agent: string, name: string): OfferedServer {
    const connection = this.#offeredTo(agent).find((c) => c.name === name);
    if (!connection) throw this.#unknownServer(name, agent);
    return { config: connection.config, connection };
  }

  /** Calls a resolved tool on its server under its original name. */
  async callTool(
    tool: ResolvedTool,
    args: Record<string, unknown>,
    opts: CallOptions & { request?: SessionRequest } = {},
  ): Promise<CallToolResult> {
    return this.#interest(tool.connection).during(opts.request, () => tool.connection.callTool(tool.entry.originalName, args, opts));
  }

  // Prompts and resources (MCP-36) are prompts-and-resources.ts's; these pass it on.
  listResources(agent = MAIN_AGENT, server?: string, opts: ListOptions = {}): Promise<ResourceEntry[]> {
    return this.#lists.listResources(agent, server, opts);
  }

  listResourceTemplates(agent = MAIN_AGENT, opts: ListOptions = {}): Promise<Array<ResourceTemplate & { server: string }>> {
    return this.#lists.listResourceTemplates(agent, opts);
  }

  readResource(uri: string, opts: RouteOptions & { server?: string } = {}): Promise<ReadResourceResult & { server: string }> {
    return this.#lists.readResource(uri, opts);
  }

  listPrompts(agent = MAIN_AGENT, opts: ListOptions = {}): Promise<PromptEntry[]> {
    return this.#lists.listPrompts(agent, opts);
  }

  /** The prompt, and which server gave it (for the audit log; not the client's). */
  getPrompt(exposedName: string, args: Record<string, string>, opts: RouteOptions = {}): Promise<GetPromptResult & { server: string }> {
    return this.#lists.getPrompt(exposedName, args, opts);
  }

  // What the hub's sessions ask beyond tools (issue 13) is session-routing.ts's; these pass it on.
  complete(params: CompleteRequest['params'], opts: RouteOptions = {}): Promise<CompleteResult> {
    return this.#routing.complete(params, opts);
  }

  subscribe(uri: string, session: string, opts: RouteOptions = {}): Promise<string> {
    return this.#routing.subscribe(uri, session, opts);
  }

  unsubscribe(uri: string, session: string, opts: RouteOptions = {}): Promise<void> {
    return this.#routing.unsubscribe(uri, session, opts);
  }

  setLogLevel(session: string, level: LoggingLevel, agent = MAIN_AGENT): Promise<void> {
    return this.#routing.setLogLevel(session, level, agent);
  }

  dropSession(session: string): Promise<void> {
    return this.#routing.dropSession(session);
  }

  offers(agent: string, server: string): boolean {
    return this.#routing.offers(agent, server);
  }

  introduced(agent = MAIN_AGENT): IntroducedServer[] {
    return this.#routing.introduced(agent);
  }

  settle(agent: string, waitMs: number): Promise<void> {
    return this.#routing.settle(agent, waitMs);
  }

  /** The connection of one server, for resources, prompts and tests. */
  connection(name: string): ServerConnection {
    return this.#get(name);
  }

  connections(): readonly ServerConnection[] {
    return this.#connections;
  }

  /** Stops every server (MCP-12); the manager is done after this. */
  async close(): Promise<void> {
    this.#closed = true;
    const all = this.#connections;
    this.#connections = [];
    this.#catalogs.clear();
    await Promise.all(all.map((c) => this.#retire(c)));
  }

  /**
   * A client may call a tool of a server its breaker paused, listed before the pause (MCP-32):
   * named as it would be with the paused servers' last tools in the catalog, it is refused in
   * the breaker's words ("… unavailable after repeated failures; retrying in d").
   */
  #pausedRefusal(agent: string, exposedName: string): BlitzError | undefined {
    const usable = this.#connections.filter((c) => !c.config.disabled && agentMayUse(c.config.agents, agent));
    const paused = new Set(usable.filter((c) => !offersTools(c.breaker.status())));
    if (paused.size === 0) return undefined;
    const owner = this.#catalogs.entryAsListed(usable, paused, exposedName)?.server;
    return [...paused].find((c) => c.name === owner)?.breaker.refusal();
  }

  /** A tool held for review is refused by its name, saying why and how to accept it (issue 31). */
  #reviewRefusal(agent: string, exposedName: string): BlitzError | undefined {
    const usable = this.#offeredTo(agent).filter((c) => this.#pins.held(c).size > 0);
    if (usable.length === 0) return undefined;
    const entry = this.#catalogs.entryAsListed(this.#offeredTo(agent), new Set(), exposedName);
    const connection = usable.find((c) => c.name === entry?.server);
    const change = entry && connection && this.#pins.held(connection).get(entry.originalName);
    if (!entry || !change) return undefined;
    return reviewRefusal(exposedName, entry.server, change);
  }

  /** A listing put these tools in review first: the user hears it once (MCP-33), and the server's status shows them. */
  #inReview(connection: ServerConnection, tools: readonly string[]): void {
    if (this.#closed || !this.#connections.includes(connection)) return;
    const held = this.#pins.held(connection);
    const items = tools.map((t) => `"${t}" (${held.get(t) === 'new' ? 'new' : 'changed'})`).join(', ');
    const message = `MCP server ${connection.name}: ${tools.length === 1 ? 'tool' : 'tools'} ${items} held for review: not what was pinned when the server was first trusted; see blitz mcp review ${connection.name}`;
    this.#emit({ type: 'notice', notice: { server: connection.name, kind: 'review', message, time: this.#opts.clock.now() } });
    this.#pool.announce(connection);
  }

  #offeredTo(agent: string): ServerConnection[] {
    return this.#connections.filter((c) => !c.config.disabled && offersTools(c.breaker.status()) && agentMayUse(c.config.agents, agent));
  }

  #interest(connection: ServerConnection): ServerInterest {
    const lease = this.#leases.get(connection);
    if (!lease) throw new BlitzError('INTERNAL', `MCP server ${connection.name} is no longer in workspace ${this.workspace}`);
    return lease.interest;
  }

  #unknownServer(name: string, agent: string): BlitzError {
    return new BlitzError('NOT_FOUND', `no MCP server named "${name}" is offered to ${agent} in workspace ${this.workspace}`, {
      reason: 'MCP_SERVER_NOT_FOUND',
    });
  }

  #get(name: string): ServerConnection {
    const found = this.#connections.find((c) => c.name === name);
    if (!found)
      throw new BlitzError('NOT_FOUND', `no MCP server named "${name}" in workspace ${this.workspace}`, { reason: 'MCP_SERVER_NOT_FOUND' });
    return found;
  }

  #connect(resolved: ResolvedServer): ServerConnection {
    if (this.#closed) throw new BlitzError('FAILED_PRECONDITION', `workspace ${this.workspace} is closed`);
    // The pool emits nothing while leasing, so `lease` is set before any event arrives.
    const lease: PoolLease = this.#pool.lease(resolved, {
      workspace: this.workspace,
      onEvent: (event) => this.#onConnectionEvent(lease.connection, event),
      onNotification: (notification) => {
        if (this.#connections.includes(lease.connection)) this.#emit(notification);
      },
    });
    this.#leases.set(lease.connection, lease);
    return lease.connection;
  }

  /** This workspace's use of a connection ends: the last user's release stops it. */
  #retire(connection: ServerConnection): Promise<void> {
    const lease = this.#leases.get(connection);
    this.#leases.delete(connection);
    return lease ? lease.release() : connection.dispose();
  }

  /** A server's event: the pool reports its state, failures and notices; here it may change the catalog. */
  #onConnectionEvent(connection: ServerConnection, event: ConnectionEvent): void {
    // Events from a connection that was replaced or removed no longer concern this workspace.
    if (!this.#connections.includes(connection)) return;
    switch (event.type) {
      case 'status':
        // Only its tools, whether they are offered, or whether the catalog cache answers for it change a catalog.
        if (this.#cached.statusChanged(connection, this.#interest(connection).announced()) || event.toolsChanged) this.#catalogChanged();
        return;
      case 'listChanged':
        this.#emit(event);
        return;
      case 'notice':
      case 'failure':
        return;
      default: {
        const _exhaustive: never = event;
        return _exhaustive;
      }
    }
  }

  /** Without the daemon's pool, this manager's own reports its servers' state, failures and notices as this manager's events. */
  #ownPoolEvent({ server, event }: PoolEvent): void {
    if (!this.#connections.includes(server)) return;
    switch (event.type) {
      case 'status':
        this.#emit({ type: 'status', status: event.status });
        return;
      case 'notice':
        this.#emit({ type: 'notice', notice: { ...event.notice, time: this.#opts.clock.now() } });
        return;
      case 'failure':
        this.#emit({ type: 'failure', server: event.server, reason: event.reason });
        return;
      case 'listChanged':
        return;
      default: {
        const _exhaustive: never = event;
        return _exhaustive;
      }
    }
  }

  #catalogChanged(): void {
    this.#catalogs.changed();
    this.#emit({ type: 'catalog' });
  }

  #emit(event: ManagerEvent): void {
    this.#opts.onEvent?.(event);
  }
}

/** A call of a tool held for review (issue 31): refused, saying why and how to accept it. */
function reviewRefusal(exposedName: string, server: string, change: 'changed' | 'new'): BlitzError {
  const what = change === 'new' ? 'is new in MCP server' : 'changed its definition in MCP server';
  return new BlitzError(
    'FAILED_PRECONDITION',
    `${exposedName} ${what} "${server}" since its tools were pinned, and is held for review: see blitz mcp review ${server}, then accept it with blitz mcp review ${server} --accept`,
    { reason: 'TOOL_IN_REVIEW' },
  );
}
