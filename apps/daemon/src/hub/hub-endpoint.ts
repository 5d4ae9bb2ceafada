import type { ToolUse } from './tool-use.js';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import type { Duplex } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  BlitzError,
  JsonLinesTransport,
  MAIN_AGENT,
  MAX_MESSAGE_DEPTH,
  nestsDeeperThan,
  tooDeepMessage,
  type ManagerEvent,
  type Redactor,
  type Settings,
} from '@blitz/core';
import { MAX_CLIENT_MESSAGE_BYTES, MCP_LINES_PROTOCOL } from '@blitz/client';
import type { Clock, Timer } from '@blitz/clock';
import type { AuditLog } from '../audit/audit-log.js';
import type { Logger } from '../log/index.js';
import type { Workspace } from '../workspaces/workspace.js';
import type { WorkspaceRegistry } from '../workspaces/workspace-registry.js';
import { DEFERRED_TOOL_NAMES } from './deferred-tools.js';
import { HttpSessionTransport, readJsonBody, refuse } from './http-session-transport.js';
import { HubSession, hubServerInfo } from './hub-session.js';
import { RedactingTransport } from './redacting-transport.js';
import { SessionReaper } from './session-reaper.js';
import { serverRequests } from './server-requests.js';
import { RESOURCE_TOOL_NAMES } from './resource-tool-list.js';
import { serveModernPost } from './modern/modern-http.js';
import { taskRequest } from './modern/task-requests.js';
import { TaskTable } from './modern/task-table.js';
import { opensModern, serveModernLines, StartedTransport } from './modern/modern-lines.js';
import { isModernPost } from './modern/modern-request.js';
import { InputWaits } from './modern/input-waits.js';
import type { HeldCall } from './modern/modern-exchange.js';

/** What the hub offers the servers it connects to: it answers elicitation and roots. */
const SERVER_CAPABILITIES = { elicitation: {}, roots: { listChanged: false } };

/** Catalog changes are gathered this long, so a burst reaches a client as one `list_changed`. */
export const NOTIFY_DEBOUNCE_MS = 100;

export interface HubOptions {
  registry: WorkspaceRegistry;
  clock: Clock;
  settings(): Settings;
  version: string;
  log: Logger;
  /** The daemon's redactor: what a session sends its client passes through it. */
  redactor: Redactor;
  /** How often each tool was called (tool-use.ts), shared by every session. */
  toolUse?: ToolUse;
  /** The daemon's audit log (issue 31). */
  audit?: AuditLog;
  /** `tools/call` past the SDK server's dispatch (ToolCallFastPath); default true. */
  fastLane?: boolean;
}

interface Session {
  hub: HubSession;
  transport: Transport;
}

/** Who a session serves, from `/mcp?workspace=DIR&agent=NAME&mode=read-only`. */
interface SessionQuery {
  root: string;
  agent: string;
  readOnly: boolean;
}

/**
 * The aggregated MCP endpoint, `/mcp`: streamable HTTP with stateful sessions, or, upgraded,
 * one JSON-RPC message per line for `blitz connect`. Each session belongs to a workspace, an
 * agent and a mode, given as `?workspace=DIR&agent=NAME&mode=read-only`.
 */
export class HubEndpoint {
  readonly #opts: HubOptions;
  readonly #sessions = new Map<string, Session>();
  readonly #pending = new Map<Workspace, Timer>();
  /** Notices heard by sessions still being introduced (waiting for their servers), by workspace. */
  readonly #introducing = new Set<{ workspace: Workspace; notices: string[] }>();
  /** Hubs serving one modern request each (modern-http.ts): a server's log message during one reaches it. */
  readonly #modern = new Set<HubSession>();
  /** 2026-07-28 calls held between their client's rounds (input_required), on both paths. */
  readonly #waits: InputWaits<HeldCall>;
  /** Tasks servers made of 2026-07-28 clients' calls, daemon-wide: a client follows one with later requests, each a session of its own. */
  readonly #tasks: TaskTable;
  #closing = false;

  constructor(opts: HubOptions) {
    this.#opts = opts;
    this.#waits = new InputWaits(opts.clock);
    this.#tasks = new TaskTable(opts.clock);
  }

  /** What every workspace's manager needs from the hub: its own tool names, and how tools in review are offered. */
  managerOptions(_root: string) {
    return {
      builtIns: [...RESOURCE_TOOL_NAMES, ...DEFERRED_TOOL_NAMES],
      pinReview: () => this.#opts.settings().hub.pinReview,
    };
  }

  /**
   * The server-request handlers on the connections of servers run for a root: a workspace's,
   * or for shared servers (`share = true`) the user's home; a shared server's callers come from
   * any workspace (each call carries its own).
   */
  clientHooks(root: string) {
    return {
      capabilities: SERVER_CAPABILITIES,
      // Issue 10 point 2 adds a per-server `roots` setting; a shared server's roots would follow it here.
      prepareClient: serverRequests({ roots: [root], log: this.#opts.log }),
    };
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** One HTTP request of `/mcp`; `target` is its request target (path and query), read only when a session opens. */
  async handle(req: IncomingMessage, res: ServerResponse, target: string): Promise<void> {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const transport = this.#sessions.get(id)?.transport;
      if (!(transport instanceof HttpSessionTransport)) {
        // The client knew a session this daemon never had (it restarted): it must initialize again.
        return refuse(res, new BlitzError('NOT_FOUND', 'Session not found', { reason: 'SESSION_NOT_FOUND' }));
      }
      await transport.handleRequest(req, res);
      return;
    }
    let body: unknown;
    try {
      body = req.method === 'POST' ? await readJsonBody(req) : undefined;
    } catch (err) {
      return refuse(res, err);
    }
    if (nestsDeeperThan(body, MAX_MESSAGE_DEPTH))
      return refuse(res, new BlitzError('INVALID_ARGUMENT', tooDeepMessage(MAX_MESSAGE_DEPTH), { reason: 'TOO_DEEP' }));
    // A single request outside a session that is not a legacy initialize is of the modern era (2026-07-28).
    if (isModernPost(body)) return this.#serveModern(req, res, target, body);
    // Nothing runs, and no workspace opens, before a session exists.
    if (!(Array.isArray(body) ? body : [body]).some((m) => isInitializeRequest(m))) {
      return refuse(res, new BlitzError('INVALID_ARGUMENT', 'Bad Request: no session; send initialize first', { reason: 'NO_SESSION' }));
    }
    await this.#open(req, res, new URL(target, 'http://127.0.0.1'), body);
  }

  /** Passes a workspace's manager events to its sessions: list changes (debounced) and notices. */
  onManagerEvent(workspace: Workspace, event: ManagerEvent): void {
    if (event.type === 'notice') {
      this.notice([workspace.root], event.notice.message);
    } else if (event.type === 'listChanged') {
      for (const s of this.#in(workspace)) void s.hub.listChanged(event.list);
    } else if (event.type === 'log') {
      this.#log(workspace, event);
    } else if (event.type === 'resourceUpdated') {
      const subscribed = new Set(event.sessions);
      for (const s of this.#in(workspace)) if (subscribed.has(s.hub.id)) void s.hub.resourceUpdated(event.uri);
    } else if (event.type === 'subscriptionsEnded') {
      const uris = new Map(event.subscriptions.map((e) => [e.session, e.uris]));
      for (const s of this.#in(workspace)) if (uris.has(s.hub.id)) void s.hub.subscriptionsEnded(event.server, uris.get(s.hub.id)!);
    } else if (event.type === 'catalog') {
      // A status alone changes no list: the manager says `catalog` when a server's tools did.
      if (this.#pending.has(workspace)) return;
      this.#pending.set(
        workspace,
        this.#opts.clock.setTimeout(() => {
          this.#pending.delete(workspace);
          for (const s of this.#in(workspace)) void s.hub.catalogChanged();
        }, NOTIFY_DEBOUNCE_MS),
      );
    }
  }

  /** Settings were applied: a session whose listing they change (`[hub] deferred`, `max_tools`) hears so. */
  settingsApplied(): void {
    for (const s of this.#sessions.values()) void s.hub.toolsMayHaveChanged();
  }

  /** A server's notice (MCP-33), for the sessions of every workspace using it. */
  notice(workspaces: readonly string[], message: string): void {
    for (const s of this.#sessions.values()) if (workspaces.includes(s.hub.workspace.root)) void s.hub.notice(message);
    for (const early of this.#introducing) if (workspaces.includes(early.workspace.root)) early.notices.push(message);
  }

  /**
   * A server's log message: sent during requests from sessions of this workspace, to those
   * sessions, on each one's latest such request's stream; sent outside any request (or during
   * only other workspaces' requests, for a shared server: those go there), to every session of
   * the workspace whose agent is offered the server.
   */
  #log(workspace: Workspace, event: Extract<ManagerEvent, { type: 'log' }>): void {
    const sessions = [...this.#in(workspace)];
    if (event.during.length > 0) {
      const latest = new Map(event.during.map((r) => [r.session, r.requestId]));
      for (const hub of [...sessions.map((s) => s.hub), ...this.#modern]) {
        const requestId = latest.get(hub.id);
        if (requestId !== undefined) void hub.log(event.server, event.params, requestId);
      }
      return;
    }
    for (const s of sessions) if (workspace.manager.routing.offers(s.hub.agent, event.server)) void s.hub.log(event.server, event.params);
  }

  async closeAll(): Promise<void> {
    this.#closing = true;
    // Calls held for their clients' answers end: their servers hear an error, their sessions close.
    this.#waits.expireAll();
    for (const timer of this.#pending.values()) timer.cancel();
    this.#pending.clear();
    await Promise.all([...this.#sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
  }

  /**
   * An upgraded `/mcp` connection (`Upgrade: blitz-mcp-lines`, guarded like any request): the
   * connection is the session, from its first line to its close.
   */
  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> {
    if (req.method !== 'GET' || req.headers.upgrade?.toLowerCase() !== MCP_LINES_PROTOCOL)
      throw new BlitzError('INVALID_ARGUMENT', `/mcp upgrades only a GET, only to ${MCP_LINES_PROTOCOL}`);
    const query = parseQuery(url);
    if (typeof query === 'string') throw new BlitzError('INVALID_ARGUMENT', query);
    const hub = await this.#hubFor(query);
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${MCP_LINES_PROTOCOL}\r\nConnection: Upgrade\r\n\r\n`);
    const transport = new JsonLinesTransport(socket, {
      maxMessageBytes: MAX_CLIENT_MESSAGE_BYTES,
      maxDepth: MAX_MESSAGE_DEPTH,
      head,
      clock: this.#opts.clock,
    });
    const id = randomUUID();
    transport.onclose = () => this.#ended(id, hub);
    hub.server.oninitialized = () => {
      this.#initialized(id, hub);
      hub.introduced();
    };
    // Listed first: a connection that closes at once then ends its session like any other.
    this.#begun(id, { hub, transport }, query);
    // Past the 101 the connection speaks lines: a failure now closes it rather than answer in HTTP.
    const failed = async (err: unknown) => {
      this.#opts.log.error('a blitz connect session failed to start', { session: id, error: (err as Error).message });
      await transport.close();
    };
    // The first message picks the era: a 2026-07-28 request, or (as before) anything else.
    transport.onmessage = (first) => {
      if (opensModern(first)) return void serveModernLines(transport, hub, first, this.#opts.redactor, this.#waits).catch(failed);
      // The SDK server's handlers are set before connect's first await: the first message, and those behind it, reach them.
      const connected = hub.server.connect(hub.transport(new RedactingTransport(new StartedTransport(transport), this.#opts.redactor)));
      transport.onmessage?.(first);
      void connected.catch(failed);
    };
    await transport.start().catch(failed);
  }

  async #open(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): Promise<void> {
    const query = parseQuery(url);
    if (typeof query === 'string') return refuse(res, new BlitzError('INVALID_ARGUMENT', query));
    const hub = await this.#hubFor(query);
    const transport = new HttpSessionTransport(() => randomUUID(), this.#opts.clock);
    // Most clients leave without the DELETE that ends a session.
    const reaper = new SessionReaper(this.#opts.clock, () => void transport.close());
    transport.onActivity = () => reaper.activity();
    transport.onStreamOpened = () => {
      reaper.streamOpened();
      // Its event stream is where what is not tied to a request can reach it.
      hub.introduced();
    };
    transport.onStreamClosed = () => reaper.streamClosed();
    transport.onclose = () => {
      reaper.stop();
      this.#ended(transport.sessionId, hub);
    };
    hub.server.oninitialized = () => this.#initialized(transport.sessionId, hub);
    await hub.server.connect(hub.transport(new RedactingTransport(transport, this.#opts.redactor)));
    await transport.handleRequest(req, res, body);
    // A first message that was not initialize leaves no session behind, nor a workspace held open.
    if (transport.sessionId) this.#begun(transport.sessionId, { hub, transport }, query);
    else await transport.close().catch(() => undefined);
  }

  /** One modern request: a session of its own, for this request alone (modern-http.ts). */
  async #serveModern(req: IncomingMessage, res: ServerResponse, target: string, request: JSONRPCRequest): Promise<void> {
    const query = parseQuery(new URL(target, 'http://127.0.0.1'));
    if (typeof query === 'string') return refuse(res, new BlitzError('INVALID_ARGUMENT', query));
    const open = async (listening?: Transport) => {
      const hub = await this.#hubFor(query);
      this.#modern.add(hub);
      // A subscription's session hears what every session does (list changes, resource updates) until its stream ends.
      const id = listening ? randomUUID() : undefined;
      if (id !== undefined) this.#sessions.set(id, { hub, transport: listening! });
      return {
        hub,
        ended: () => {
          this.#modern.delete(hub);
          this.#ended(id, hub);
        },
      };
    };
    // A task's request needs its workspace and server, not a session: no servers are waited for.
    const task = async (asked: JSONRPCRequest, capabilities: Record<string, unknown>) => {
      const workspace = await this.#opts.registry.acquire(query.root);
      try {
        const scope = { manager: workspace.manager, root: workspace.root, agent: query.agent, tasks: this.#tasks };
        return await taskRequest(scope, asked, capabilities, hubServerInfo(this.#opts.version));
      } finally {
        this.#opts.registry.release(workspace);
      }
    };
    await serveModernPost(req, res, request, open, { redactor: this.#opts.redactor, waits: this.#waits, clock: this.#opts.clock, task });
  }

  /** A new session's hub; its workspace is held until `#ended`. */
  async #hubFor(query: SessionQuery): Promise<HubSession> {
    const workspace = await this.#opts.registry.acquire(query.root);
    // Past closeAll, a new session would outlive it (the HTTP server does not close upgraded connections).
    if (this.#closing) {
      this.#opts.registry.release(workspace);
      throw new BlitzError('SERVER_UNAVAILABLE', 'the Blitz daemon is stopping', { reason: 'DAEMON_STOPPING' });
    }
    // A server that fails meanwhile is a notice this session must hear too, once it can.
    const early = { workspace, notices: [] as string[] };
    this.#introducing.add(early);
    try {
      // As long as a listing waits ([hub] list_wait_ms): what the servers announce by then is what initialize says.
      await workspace.manager.routing.settle(query.agent, this.#opts.settings().hub.listWaitMs);
    } finally {
      this.#introducing.delete(early);
    }
    return new HubSession({
      workspace,
      agent: query.agent,
      earlyNotices: early.notices,
      tasks: this.#tasks,
      readOnly: query.readOnly,
      version: this.#opts.version,
      clock: this.#opts.clock,
      settings: this.#opts.settings,
      ...(this.#opts.toolUse === undefined ? {} : { toolUse: this.#opts.toolUse }),
      ...(this.#opts.audit ? { audit: this.#opts.audit } : {}),
      ...(this.#opts.fastLane === false ? { fastLane: false } : {}),
    });
  }

  #begun(id: string, session: Session, query: SessionQuery): void {
    this.#sessions.set(id, session);
    this.#opts.log.info('client connected', {
      session: id,
      workspace: query.root,
      agent: query.agent,
      mode: query.readOnly ? 'read-only' : 'default',
    });
  }

  #initialized(id: string | undefined, hub: HubSession): void {
    this.#opts.log.info('client initialized', { session: id, ...hub.clientInfo() });
  }

  #ended(id: string | undefined, hub: HubSession): void {
    if (id !== undefined && this.#sessions.delete(id))
      this.#opts.log.info('client disconnected', { session: id, workspace: hub.workspace.root });
    void hub.ended();
    this.#opts.registry.release(hub.workspace);
  }

  *#in(workspace: Workspace): Iterable<Session> {
    for (const s of this.#sessions.values()) if (s.hub.workspace === workspace) yield s;
  }
}

function parseQuery(url: URL): SessionQuery | string {
  const mode = url.searchParams.get('mode') ?? 'default';
  if (mode !== 'default' && mode !== 'read-only') return `unknown mode ${mode}; use read-only`;
  return {
    root: url.searchParams.get('workspace') || os.homedir(),
    agent: url.searchParams.get('agent') || MAIN_AGENT,
    readOnly: mode === 'read-only',
  };
}
