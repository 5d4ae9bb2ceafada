import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { LoggingLevel, LoggingMessageNotification, RequestId, ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  LazySchemaValidator,
  paramHeadersOf,
  passesLevel,
  type Catalog,
  type CatalogEntry,
  type ClientSurface,
  type ParamHeader,
  type Settings,
} from '@blitz/core';
import type { Clock } from '@blitz/clock';
import type { Workspace } from '../workspaces/workspace.js';
import type { AuditLog } from '../audit/audit-log.js';
import { AuditedCall, type SessionAudit } from '../audit/audited-call.js';
import { Approver } from './approver.js';
import { registerCompletions } from './completion-handlers.js';
import { introduce } from './introduction.js';
import { registerLogging } from './logging-handlers.js';
import { registerPrompts } from './prompt-handlers.js';
import { registerResources } from './resource-handlers.js';
import type { DeferredListing } from './deferred-listing.js';
import { DeferredTools } from './deferred-tools.js';
import type { ToolUse } from './tool-use.js';
import { addInstructions } from './initialize-instructions.js';
import type { SessionContext } from './session-context.js';
import { sameTools } from './same-tools.js';
import { taskMade, type TaskScope } from './modern/task-requests.js';
import type { TaskTable } from './modern/task-table.js';
import { RelistWait } from './relist-wait.js';
import { registerSubscriptions } from './subscription-handlers.js';
import { ToolCallFastPath } from './tool-call-fast-path.js';
import { registerTools, type ToolCallHandler } from './tools-handlers.js';

export interface SessionOptions {
  /** The daemon's audit log (issue 31): a line for each call, read and get of this session. */
  audit?: AuditLog;
  workspace: Workspace;
  agent: string;
  readOnly: boolean;
  version: string;
  clock: Clock;
  /** The settings in force now: permissions and limits follow live edits. */
  settings(): Settings;
  /** Notices raised while the session waited for its servers: sent once it can hear them (`introduced`). */
  earlyNotices?: readonly string[];
  /** The tasks servers made of 2026-07-28 clients' calls (the tasks extension), daemon-wide. */
  tasks: TaskTable;
  /** How often each tool was called, daemon-wide: ranks the tools kept listed past `max_tools`, and counts this session's calls. */
  toolUse?: ToolUse;
  /** `tools/call` past the SDK server's dispatch (ToolCallFastPath); default true. Off: the SDK server answers it. */
  fastLane?: boolean;
}

/** Who the hub says it is, to every client. */
export function hubServerInfo(version: string): { name: string; version: string } {
  return { name: 'blitz', version };
}

/**
 * What one connected client sees (DESIGN.md "Data flow of a tool call"): the workspace's
 * catalog for its agent and mode, the resource tools, passed-through resources and prompts,
 * calls routed with approval, and notices as logging messages.
 */
export class HubSession {
  /** Its id in the workspace's manager (subscriptions, logging level, requests in flight). */
  readonly id = randomUUID();
  readonly server: Server;
  /** Set by a 2026-07-28 exchange (modern-exchange.ts): whether a request of this session waits for its client's retry. */
  waiting: ((requestId: RequestId) => boolean) | undefined;
  readonly #opts: SessionOptions;
  readonly #approver: Approver;
  readonly #deferred: DeferredTools;
  /** A search's answer waits for the client's listing of the tools it found (relist-wait.ts). */
  readonly #relisted: RelistWait;
  /** What the client last saw of the tools, to tell it only about real changes. */
  #shown: readonly Tool[];
  /** The agent's catalog when this session last looked: the same one means nothing it is offered changed. */
  #catalogSeen: Catalog<CatalogEntry>;
  /** The agent's prompts-and-resources key when this session last looked (Manager.listsKey). */
  #listsSeen: object;
  /** The client's `logging/setLevel`; until it sends one, every server message reaches it. */
  #level: LoggingLevel | undefined;
  readonly #capabilities: ServerCapabilities;
  #callTool!: ToolCallHandler;
  /** Notices held until the client can hear them; undefined once it can. */
  #early: string[] | undefined;
  /** Whether the client was last told that tools are deferred (at initialize, or by a notice since); undefined before initialize. */
  #toldDefers: boolean | undefined;

  /**
   * The SDK server declares its capabilities when it is made: it is made after the
   * workspace's servers were given their chance to start (`Manager.settle`), from what they
   * announced (a server not up by then is declared by its last handshake, if any).
   */
  constructor(opts: SessionOptions) {
    this.#opts = opts;
    const { capabilities, instructions, withParagraph } = introduce({
      root: opts.workspace.root,
      agent: opts.agent,
      readOnly: opts.readOnly,
      offered: opts.workspace.manager.routing.introduced(opts.agent),
    });
    // Its schemas (an approval's form) compiled at first use: the SDK's default builds an ajv for every session, before initialize is answered.
    this.server = new Server(this.serverInfo(), { capabilities, instructions, jsonSchemaValidator: new LazySchemaValidator() });
    this.#capabilities = capabilities;
    this.#early = [...(opts.earlyNotices ?? [])];
    this.#approver = new Approver(this.server);
    this.#relisted = new RelistWait(opts.clock);
    this.#deferred = new DeferredTools(
      { workspace: opts.workspace, agent: opts.agent, readOnly: opts.readOnly, settings: opts.settings },
      () => this.server.getClientVersion()?.name,
      opts.toolUse?.snapshot(),
    );
    // The deferred-tools paragraph is the instructions' own: it depends on the client, known only at initialize.
    addInstructions(this.server, (clientName) => {
      const told = this.#deferred.told(this.#deferred.listing(this.#catalog(), clientName), clientName);
      this.#toldDefers = told.defers;
      // Under `never` with nothing deferred there is nothing to reach by search: no paragraph.
      const paragraph = told.defers || this.#deferred.surface(clientName).deferred !== 'never' ? told.text : undefined;
      return paragraph === undefined ? undefined : withParagraph(paragraph);
    });
    this.#catalogSeen = opts.workspace.manager.catalog(opts.agent);
    this.#listsSeen = opts.workspace.manager.listsKey(opts.agent);
    this.#shown = this.#tools(this.#catalogSeen.list());
    this.#register();
  }

  /** What `server` connects to: the session's transport, `tools/call` taken past the SDK's dispatch (ToolCallFastPath). */
  transport(inner: Transport): Transport {
    return new ToolCallFastPath(inner, this.server, this.#opts.fastLane === false ? undefined : this.#callTool);
  }

  get workspace(): Workspace {
    return this.#opts.workspace;
  }

  get agent(): string {
    return this.#opts.agent;
  }

  /**
   * A catalog may have changed (a toggle, a settings edit, the breaker, a server's tools)
   * (MCP-45). Nothing is sent when this session's agent has the same catalog as before: the
   * servers it is offered, and what they list, are the same. Otherwise tools when what this
   * client sees did, and prompts and resources, which are not listed here, when a server that
   * came, went or restarted may have changed them (Manager.listsKey: not a cold start's step
   * from the catalog cache to the same server live; its own changes come as `listChanged`).
   */
  async catalogChanged(): Promise<void> {
    const catalog = this.#opts.workspace.manager.catalog(this.#opts.agent);
    if (catalog === this.#catalogSeen) return;
    this.#catalogSeen = catalog;
    const lists = this.#opts.workspace.manager.listsKey(this.#opts.agent);
    const sends = lists === this.#listsSeen ? [] : [this.server.sendPromptListChanged(), this.server.sendResourceListChanged()];
    this.#listsSeen = lists;
    const listing = this.#changedListing(catalog.list());
    if (listing) {
      sends.push(this.server.sendToolListChanged());
      this.#tellDeferral(listing);
    }
    await Promise.all(sends).catch(() => undefined);
  }

  /** The settings changed: `[hub] deferred` or a limit may change what this client is listed. */
  async toolsMayHaveChanged(): Promise<void> {
    const listing = this.#changedListing(this.#catalog());
    if (!listing) return;
    const sent = this.server.sendToolListChanged().catch(() => undefined);
    this.#tellDeferral(listing);
    await sent;
  }

  /** A server changed its prompts or resources. */
  async listChanged(list: 'prompts' | 'resources'): Promise<void> {
    await (list === 'prompts' ? this.server.sendPromptListChanged() : this.server.sendResourceListChanged()).catch(() => undefined);
  }

  /**
   * A server's log message, when it passes the client's level; on the stream of the request
   * it was sent during, if any. `logger` is the server's name when the server gave none.
   */
  async log(server: string, params: LoggingMessageNotification['params'], relatedRequestId?: RequestId): Promise<void> {
    if (!passesLevel(params.level, this.#level)) return;
    const message = { method: 'notifications/message' as const, params: { ...params, logger: params.logger ?? server } };
    await this.server.notification(message, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch(() => undefined);
  }

  /** A resource this session subscribed to changed. */
  async resourceUpdated(uri: string): Promise<void> {
    await this.server.sendResourceUpdated({ uri }).catch(() => undefined);
  }

  /**
   * The server these subscriptions were on was removed from the settings: they ended. The
   * client hears it as a change of the resources list (re-listing shows them gone) and a
   * warning naming what ended, not as silence.
   */
  async subscriptionsEnded(server: string, uris: readonly string[]): Promise<void> {
    const what = uris.length === 1 ? `the subscription to ${uris[0]} has` : `the subscriptions to ${uris.join(', ')} have`;
    await Promise.all([
      this.server.sendResourceListChanged().catch(() => undefined),
      this.notice(`MCP server ${server} was removed from the settings: ${what} ended`),
    ]);
  }

  /** The session ended: its subscriptions and logging level go from the workspace's servers. */
  async ended(): Promise<void> {
    await this.#opts.workspace.manager.routing.dropSession(this.id).catch(() => undefined);
  }

  /**
   * Who the client said it is at initialize, and the surface that name picks (issue 30.3;
   * `[hub.clients."<name>"]`): what the log says, so a user can find the name to set.
   */
  clientInfo(): { client: string | undefined; version: string | undefined } & ClientSurface {
    const info = this.server.getClientVersion();
    return { client: info?.name, version: info?.version, ...this.#deferred.surface(info?.name) };
  }

  /** The `Mcp-Param-*` headers a 2026-07-28 call of this tool carries over HTTP: its schema's marks; none for a tool unknown or marked wrongly. */
  paramHeaders(tool: string): readonly ParamHeader[] {
    const found = paramHeadersOf(this.#opts.workspace.manager.catalog(this.#opts.agent).byExposedName(tool)?.tool.inputSchema);
    return 'headers' in found ? found.headers : [];
  }

  /** Who answers, as `initialize` and each 2026-07-28 result say. */
  serverInfo(): { name: string; version: string } {
    return hubServerInfo(this.#opts.version);
  }

  /** Where this session's client's tasks are found (task-requests.ts). */
  taskScope(): TaskScope {
    const { workspace, agent, tasks } = this.#opts;
    return { manager: workspace.manager, root: workspace.root, agent, tasks };
  }

  /** The client is initialized and can hear what is not tied to a request: the notices held for it go now. */
  introduced(): void {
    const early = this.#early;
    this.#early = undefined;
    for (const message of early ?? []) void this.notice(message);
  }

  /** A notice (MCP-33) as an MCP logging message. */
  async notice(message: string): Promise<void> {
    if (this.#early) {
      this.#early.push(message);
      return;
    }
    await this.server.sendLoggingMessage({ level: 'warning', logger: 'blitz', data: message }).catch(() => undefined);
  }

  /**
   * The instructions said whether tools are deferred; when that stops being true (a catalog
   * grown past the limit, a settings edit), a notice says what holds now.
   */
  #tellDeferral(listing: DeferredListing): void {
    if (this.#toldDefers === undefined) return;
    const told = this.#deferred.told(listing);
    if (told.defers === this.#toldDefers) return;
    this.#toldDefers = told.defers;
    if (told.text !== undefined) void this.notice(told.text);
  }

  #catalog() {
    return this.#opts.workspace.manager.catalog(this.#opts.agent).list();
  }

  /** What the client is shown of the tools: the hub's own, then those its session lists. */
  #tools(entries = this.#catalog()): readonly Tool[] {
    return this.#opts.readOnly ? [] : this.#deferred.tools(entries);
  }

  /**
   * The session's split of `entries` when it changes the tools the client is shown (they
   * become `#shown`), made once for both the list and the deferral notice; undefined when
   * they stay the same (always, in read-only mode).
   */
  #changedListing(entries: readonly CatalogEntry[]): DeferredListing | undefined {
    if (this.#opts.readOnly) return undefined;
    const listing = this.#deferred.listing(entries);
    const now = this.#deferred.toolsOf(listing);
    if (sameTools(now, this.#shown)) return undefined;
    this.#shown = now;
    return listing;
  }

  #register(): void {
    const audit: SessionAudit = {
      ...(this.#opts.audit ? { log: this.#opts.audit } : {}),
      clock: this.#opts.clock,
      agent: this.#opts.agent,
      workspace: this.#opts.workspace.root,
      client: () => this.server.getClientVersion()?.name,
    };
    const ctx: SessionContext = {
      session: this.id,
      workspace: this.#opts.workspace,
      agent: this.#opts.agent,
      readOnly: this.#opts.readOnly,
      settings: this.#opts.settings,
      approver: this.#approver,
      audit: (name, args, kind = 'tool') => new AuditedCall(audit, kind, name, args),
      toolsShown: () => {
        this.#shown = this.#tools();
        this.#relisted.listed();
      },
      setLogLevel: (level) => {
        this.#level = level;
      },
      deferred: this.#deferred,
      waiting: (requestId) => this.waiting?.(requestId) === true,
      taskMade: (server, task) => taskMade(this.taskScope(), server, task),
      ...(this.#opts.toolUse === undefined ? {} : { toolUse: this.#opts.toolUse }),
      toolsActivated: async () => {
        this.#shown = this.#tools();
        await this.#relisted.notifyAndWait(() => this.server.sendToolListChanged().catch(() => undefined));
        // The listing's answer is sent as its handler returns: a turn later, it has left first.
        // A turn of the event loop for order, not a timer: no Clock (docs/architecture.md "Time").
        await new Promise((resolve) => setImmediate(resolve));
      },
    };
    const capabilities = this.#capabilities;
    this.#callTool = registerTools(this.server, ctx);
    registerResources(this.server, ctx);
    registerPrompts(this.server, ctx);
    registerLogging(this.server, ctx);
    // The SDK refuses a handler for a capability not declared; undeclared, the client hears -32601.
    if (capabilities.completions) registerCompletions(this.server, ctx);
    if (capabilities.resources?.subscribe) registerSubscriptions(this.server, ctx);
  }
}
