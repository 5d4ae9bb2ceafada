import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MAIN_AGENT, type Clock, type ManagerEvent, type ServerConfig, type Settings } from '@blitz/core';
import type { Logger } from '../log/index.js';
import type { Workspace } from '../workspaces/workspace.js';
import type { WorkspaceRegistry } from '../workspaces/workspace-registry.js';
import { Callers } from './callers.js';
import { HttpSessionTransport, readJsonBody, rpcError } from './http-session-transport.js';
import { HubSession } from './hub-session.js';
import { SessionReaper } from './session-reaper.js';
import { prepareServerRequests } from './server-requests.js';
import { RESOURCE_TOOL_NAMES } from './resource-tools.js';

/** Catalog changes are gathered this long, so a burst reaches a client as one `list_changed`. */
const NOTIFY_DEBOUNCE_MS = 100;

export interface HubOptions {
  registry: WorkspaceRegistry;
  clock: Clock;
  settings(): Settings;
  version: string;
  log: Logger;
}

interface Session {
  hub: HubSession;
  transport: HttpSessionTransport;
}

/**
 * The aggregated MCP endpoint, `/mcp` (streamable HTTP, stateful sessions): each session
 * belongs to a workspace, an agent and a mode, given as `?workspace=DIR&agent=NAME&mode=read-only`.
 */
export class HubEndpoint {
  readonly callers = new Callers();
  readonly #opts: HubOptions;
  readonly #sessions = new Map<string, Session>();
  readonly #pending = new Map<Workspace, NodeJS.Timeout>();

  constructor(opts: HubOptions) {
    this.#opts = opts;
  }

  /** What every workspace's manager needs from the hub: its own tool names and the server-request handlers. */
  managerOptions(root: string) {
    return {
      builtIns: RESOURCE_TOOL_NAMES,
      capabilities: { elicitation: {}, roots: { listChanged: false } },
      prepareClient: (client: Parameters<typeof prepareServerRequests>[0], config: ServerConfig) => prepareServerRequests(client, config, root, this.callers),
    };
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = this.#sessions.get(id);
      if (!session) {
        // The client knew a session this daemon never had (it restarted): it must initialize again.
        return rpcError(res, 404, -32001, 'Session not found');
      }
      await session.transport.handleRequest(req, res);
      return;
    }
    let body: unknown;
    try {
      body = req.method === 'POST' ? await readJsonBody(req) : undefined;
    } catch {
      return rpcError(res, 400, -32700, 'Parse error: the body is not JSON');
    }
    // Nothing runs, and no workspace opens, before a session exists.
    if (!(Array.isArray(body) ? body : [body]).some((m) => isInitializeRequest(m))) {
      return rpcError(res, 400, -32000, 'Bad Request: no session; send initialize first');
    }
    await this.#open(req, res, url, body);
  }

  /** Passes a workspace's manager events to its sessions: list changes (debounced) and notices. */
  onManagerEvent(workspace: Workspace, event: ManagerEvent): void {
    if (event.type === 'notice') {
      for (const s of this.#in(workspace)) void s.hub.notice(event.notice.message);
    } else if (event.type === 'listChanged') {
      for (const s of this.#in(workspace)) void s.hub.listChanged(event.list);
    } else if (event.type === 'catalog' || event.type === 'status') {
      if (this.#pending.has(workspace)) return;
      this.#pending.set(
        workspace,
        setTimeout(() => {
          this.#pending.delete(workspace);
          for (const s of this.#in(workspace)) void s.hub.catalogChanged();
        }, NOTIFY_DEBOUNCE_MS),
      );
    }
  }

  async closeAll(): Promise<void> {
    for (const timer of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
    await Promise.all([...this.#sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
  }

  async #open(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): Promise<void> {
    const root = url.searchParams.get('workspace') || os.homedir();
    const agent = url.searchParams.get('agent') || MAIN_AGENT;
    const mode = url.searchParams.get('mode') ?? 'default';
    if (mode !== 'default' && mode !== 'read-only') {
      return rpcError(res, 400, -32602, `unknown mode ${mode}; use read-only`);
    }
    const workspace = await this.#opts.registry.acquire(root);
    const hub = new HubSession({ workspace, agent, readOnly: mode === 'read-only', version: this.#opts.version, settings: this.#opts.settings, callers: this.callers });
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#opts.registry.release(workspace);
    };
    const transport = new HttpSessionTransport(() => randomUUID());
    // Most clients leave without the DELETE that ends a session.
    const reaper = new SessionReaper(this.#opts.clock, () => void transport.close());
    transport.onActivity = () => reaper.activity();
    transport.onStreamOpened = () => reaper.streamOpened();
    transport.onStreamClosed = () => reaper.streamClosed();
    transport.onclose = () => {
      reaper.stop();
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
      this.#opts.log.info('client disconnected', { session: transport.sessionId, workspace: workspace.root });
      release();
    };
    await hub.server.connect(transport);
    await transport.handleRequest(req, res, body);
    if (transport.sessionId) {
      this.#sessions.set(transport.sessionId, { hub, transport });
      this.#opts.log.info('client connected', { session: transport.sessionId, workspace: workspace.root, agent, mode });
    } else {
      // A first message that was not initialize leaves no session behind, nor a workspace held open.
      release();
      await transport.close().catch(() => undefined);
    }
  }

  *#in(workspace: Workspace): Iterable<Session> {
    for (const s of this.#sessions.values()) if (s.hub.workspace === workspace) yield s;
  }
}
