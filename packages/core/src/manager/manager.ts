import { offersTools } from '../breaker/breaker-status.js';
import { agentMayUse, MAIN_AGENT } from '../catalog/agent-may-use.js';
import type { CatalogEntry } from '../catalog/build-catalog.js';
import { unmatchedField, unmatchedSettingWarning } from '../catalog/unmatched-settings.js';
import type { Catalog } from '../catalog/catalog.js';
import { hasErrors, type Problem } from '../config/problem.js';
import { launchFingerprint } from '../config/launch-settings.js';
import type { ResolvedServer } from '../config/resolve-server.js';
import type { CallOptions, ServerConnection } from '../connection/server-connection.js';
import type { ConnectionEvent } from '../connection/connection-deps.js';
import type { ServerStatus } from '../connection/server-status.js';
import type { ToolCallAnswer } from '../connection/tool-task.js';
import { BlitzError } from '../errors/blitz-error.js';
import type { ToolReview } from '../pins/pin-store.js';
import type { OfferedServer, ResolvedTool } from './offered-server.js';
import { PinnedTools, reviewRefusal } from './pinned-tools.js';
import type { ListOptions } from './route-options.js';
import type { ManagerOptions } from './manager-options.js';
import { AgentCatalogs } from './agent-catalogs.js';
import { CachedCatalogs } from './cached-catalogs.js';
import { listWait } from './list-wait.js';
import type { ManagerEvent } from './manager-event.js';
import { PromptsAndResources } from './prompts-and-resources.js';
import { StartSoon } from './start-soon.js';
import { serverFingerprint } from './server-fingerprint.js';
import { SessionRouting } from './session-routing.js';
import type { ServerPool } from './server-pool.js';
import { privatePool, WorkspaceServers } from './workspace-servers.js';

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
  #closed = false;
  /** Where the connections come from (server-pool.ts). */
  readonly #pool: ServerPool;
  /** This workspace's lease on each connection, in settings order, with what the sessions want of it (workspace-servers.ts). */
  readonly #servers: WorkspaceServers;
  /** What the catalog cache answers for servers not up yet. */
  readonly #cached: CachedCatalogs;
  /** Which listed tools are held for review (pinned-tools.ts). */
  readonly #pins: PinnedTools;
  /** The tool catalog of each agent, with the warnings found building it (agent-catalogs.ts). */
  readonly #catalogs: AgentCatalogs;
  /** Starts the servers the cache answered for, once the client has read its answers (start-soon.ts). */
  readonly #startSoon: StartSoon;
  /** Prompts and resources across the servers (MCP-36: prompts-and-resources.ts). */
  readonly lists: PromptsAndResources;
  /** Completions, subscriptions, logging levels and introductions for the hub's sessions (issue 13: session-routing.ts). */
  readonly routing: SessionRouting;

  constructor(opts: ManagerOptions) {
    this.workspace = opts.workspace;
    this.#opts = opts;
    this.#pool =
      opts.pool ??
      privatePool(
        opts,
        (c) => this.#servers.includes(c),
        (event) => this.#emit(event),
      );
    this.#servers = new WorkspaceServers({
      workspace: opts.workspace,
      pool: this.#pool,
      onEvent: (connection, event) => this.#onConnectionEvent(connection, event),
      onNotification: (notification) => this.#emit(notification),
    });
    this.#cached = new CachedCatalogs(opts.catalogCache ?? (() => undefined), opts.workspace);
    this.#pins = new PinnedTools({
      store: opts.pins ?? (() => undefined),
      mode: opts.pinReview ?? (() => 'hide'),
      workspace: opts.workspace,
      onReview: (connection, tools) => this.#inReview(connection, tools),
    });
    this.#catalogs = new AgentCatalogs({
      offeredTo: (agent) => this.#servers.offeredTo(agent),
      cached: this.#cached,
      builtIns: opts.builtIns ?? [],
      pinned: (connection, tools) => this.#pins.offered(connection, tools),
    });
    const listable = (agent: string, waitMs: number | undefined) => this.#listable(agent, waitMs);
    this.lists = new PromptsAndResources({ servers: this.#servers, listable, cached: this.#cached });
    this.routing = new SessionRouting({ servers: this.#servers, lists: this.lists, cached: this.#cached, listable });
    this.#startSoon = new StartSoon((c) => !this.#closed && !c.config.disabled && this.#servers.includes(c), opts.clock);
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

    const old = new Map(this.#servers.all().map((c) => [c.name, c]));
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
      this.#servers.interest(fresh).adopt(this.#servers.interest(existing));
    }
    const ended: Array<Extract<ManagerEvent, { type: 'subscriptionsEnded' }>> = [];
    for (const removed of old.values()) {
      retired.push(removed);
      changed.push(removed.name);
      const subscriptions = [...this.#servers.interest(removed).subscriptionsBySession()].map(([session, uris]) => ({ session, uris }));
      if (subscriptions.length > 0) ended.push({ type: 'subscriptionsEnded', server: removed.name, subscriptions });
    }
    this.#servers.replace(next);
    this.#catalogs.changed();
    await Promise.all(retired.map((c) => this.#servers.retire(c)));
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
    for (const c of this.#servers.all()) {
      if (wanted.has(c.name) && !c.config.disabled) void c.tools().catch(() => undefined);
    }
  }

  /** Every configured server, disabled ones included, in settings order (MCP-41/47). */
  states(): ServerStatus[] {
    // A server's catalog warnings depend on the workspace's other servers (clashes), so they
    // are the main agent's catalog's, not the connection's (a shared one serves other workspaces).
    const { warnings, unmatched } = this.#catalogs.of(MAIN_AGENT);
    return this.#servers.all().map((c) => {
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
    const found = this.#servers.all().find((c) => c.name === name);
    return found !== undefined && this.isSharedConnection(found);
  }

  /** `isShared` for a connection in hand: no search, for callers walking every connection. */
  isSharedConnection(connection: ServerConnection): boolean {
    return this.#servers.isShared(connection);
  }

  /** Stops a server; it starts afresh at the next listing (MCP-47). A shared server stops for every workspace. */
  async restart(name: string): Promise<void> {
    await this.#servers.get(name).restart();
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
    return listWait(this.#servers.offeredTo(agent), waitMs, this.#opts.clock, {
      answers: (c) => this.#cached.servable(c) !== undefined,
      // A server reaped to save memory is listed as it was; only a call starts it again (issue 32.1).
      resting: (c) => this.#cached.resting(c),
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
    const connection = this.#servers.get(entry.server);
    return { entry, config: connection.config, connection };
  }

  /**
   * A resolved tool checked against its server's pins (issue 31) before it is approved and
   * called: a server listed from the catalog cache, or not started yet, is started first (as
   * its call would), so the definition checked is the one it lists now. Held for review, the
   * tool is refused (`[hub] pin_review = "hide"`) or marked to be asked (`"ask"`).
   */
  admitTool(tool: ResolvedTool): Promise<ResolvedTool> {
    return this.#pins.admit(tool);
  }

  /** The tools of a server in review, each with its changes field by field (`blitz mcp review`). */
  reviews(name: string): ToolReview[] {
    return this.#pins.reviews(this.#servers.get(name));
  }

  /** Pins the definitions of a server's tools in review (these only, when named); returns the tools pinned. */
  acceptReview(name: string, tools?: readonly string[]): string[] {
    const accepted = this.#pins.accept(this.#servers.get(name), tools);
    if (accepted.length > 0) this.pinsChanged();
    return accepted;
  }

  /** The pin store changed (a review accepted, here or in another workspace): catalogs and statuses follow. */
  pinsChanged(): void {
    this.#catalogs.changed();
    for (const c of this.#servers.all()) if (c.ready) this.#pool.announce(c);
    this.#catalogChanged();
  }

  /** A server the agent may use, by name: its config and connection (what the resource tools approve and call). */
  resolveServer(agent: string, name: string): OfferedServer {
    return this.#servers.resolve(agent, name);
  }

  /** Calls a resolved tool on its server under its original name. */
  async callTool(tool: ResolvedTool, args: Record<string, unknown>, opts: CallOptions = {}): Promise<ToolCallAnswer> {
    // Registered once, as the connection's call in flight: the interest and the idle reaper read it there.
    return tool.connection.callTool(tool.entry.originalName, args, { ...opts, tool: tool.entry.tool });
  }

  /** The connection of one server, for resources, prompts and tests. */
  connection(name: string): ServerConnection {
    return this.#servers.get(name);
  }

  connections(): readonly ServerConnection[] {
    return this.#servers.all();
  }

  /** Stops every server (MCP-12); the manager is done after this. */
  async close(): Promise<void> {
    this.#closed = true;
    const all = this.#servers.all();
    this.#servers.replace([]);
    this.#catalogs.clear();
    await Promise.all(all.map((c) => this.#servers.retire(c)));
  }

  /**
   * A client may call a tool of a server its breaker paused, listed before the pause (MCP-32):
   * named as it would be with the paused servers' last tools in the catalog, it is refused in
   * the breaker's words ("… unavailable after repeated failures; retrying in d").
   */
  #pausedRefusal(agent: string, exposedName: string): BlitzError | undefined {
    const usable = this.#servers.all().filter((c) => !c.config.disabled && agentMayUse(c.config.agents, agent));
    const paused = new Set(usable.filter((c) => !offersTools(c.breaker.status())));
    if (paused.size === 0) return undefined;
    const owner = this.#catalogs.entryAsListed(usable, paused, exposedName)?.server;
    return [...paused].find((c) => c.name === owner)?.breaker.refusal();
  }

  /** A tool held for review is refused by its name, saying why and how to accept it (issue 31). */
  #reviewRefusal(agent: string, exposedName: string): BlitzError | undefined {
    const usable = this.#servers.offeredTo(agent).filter((c) => this.#pins.held(c).size > 0);
    if (usable.length === 0) return undefined;
    const entry = this.#catalogs.entryAsListed(this.#servers.offeredTo(agent), new Set(), exposedName);
    const connection = usable.find((c) => c.name === entry?.server);
    const change = entry && connection && this.#pins.held(connection).get(entry.originalName);
    if (!entry || !change) return undefined;
    return reviewRefusal(exposedName, entry.server, change);
  }

  /** A listing put these tools in review first: the user hears it once (MCP-33), and the server's status shows them. */
  #inReview(connection: ServerConnection, tools: readonly string[]): void {
    if (this.#closed || !this.#servers.includes(connection)) return;
    const message = this.#pins.reviewMessage(connection, tools);
    this.#emit({ type: 'notice', notice: { server: connection.name, kind: 'review', message, time: this.#opts.clock.now() } });
    this.#pool.announce(connection);
  }

  #connect(resolved: ResolvedServer): ServerConnection {
    if (this.#closed) throw new BlitzError('FAILED_PRECONDITION', `workspace ${this.workspace} is closed`);
    return this.#servers.lease(resolved);
  }

  /** A server's event: the pool reports its state, failures and notices; here it may change the catalog. */
  #onConnectionEvent(connection: ServerConnection, event: ConnectionEvent): void {
    // Events from a connection that was replaced or removed no longer concern this workspace.
    if (!this.#servers.includes(connection)) return;
    switch (event.type) {
      case 'status':
        // Only its tools, whether they are offered, or whether the catalog cache answers for it change a catalog.
        if (this.#cached.statusChanged(connection, this.#servers.interest(connection).announced()) || event.toolsChanged)
          this.#catalogChanged();
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

  #catalogChanged(): void {
    this.#catalogs.changed();
    this.#emit({ type: 'catalog' });
  }

  #emit(event: ManagerEvent): void {
    this.#opts.onEvent?.(event);
  }
}
