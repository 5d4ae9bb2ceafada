import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ClientCapabilities,
  type GetPromptResult,
  type Progress,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { Breaker, type BreakerNotice } from '../breaker/breaker.js';
import type { Clock, Timer } from '@blitz/clock';
import type { ResolvedServer } from '../config/resolve-server.js';
import type { ServerConfig } from '../config/server-config.js';
import { BlitzError, isBlitzError } from '../errors/blitz-error.js';
import { classifyFailure } from './call-errors.js';
import { NeedsMoreAccess } from './http/http-failure.js';
import { isSessionExpired } from './http/session-expired.js';
import type { Connector } from './connector.js';
import type { Link } from './link.js';
import { listAllPrompts, listAllResources, listAllResourceTemplates, listAllTools } from './list-all.js';
import { toServerStatus, type ConnectionView, type ServerStatus } from './server-status.js';

/** Private state: it owns the live link. Everyone else sees `status()`. */
type State =
  | { kind: 'stopped'; lastError?: BlitzError }
  | { kind: 'starting'; attempt: Promise<Running> }
  | { kind: 'running'; link: Link; tools: Tool[]; moreAccess?: NeedsMoreAccess }
  | { kind: 'unavailable'; error: BlitzError };

type Running = Extract<State, { kind: 'running' }>;

export type ConnectionEvent =
  | { type: 'status'; status: ServerStatus }
  /** The tools this server offers may have changed: a new listing, a crash, the breaker. */
  | { type: 'tools'; server: string }
  | { type: 'notice'; notice: BreakerNotice }
  | { type: 'failure'; server: string; reason: string }
  /** The server changed its prompts or resources; clients should list them again. */
  | { type: 'listChanged'; server: string; list: 'prompts' | 'resources' };

export interface ConnectionDeps {
  connector: Connector;
  clock: Clock;
  workspace: string;
  onEvent(event: ConnectionEvent): void;
  /** Handlers for the server's own requests (elicitation, sampling, roots), set by the hub. */
  prepareClient?(client: Client, server: ServerConfig): void;
  capabilities?: ClientCapabilities;
}

export interface CallOptions {
  signal?: AbortSignal;
  onprogress?: (progress: Progress) => void;
}

/** How long to wait after `tools/list_changed` before listing again, so a burst lists once. */
const REFRESH_DEBOUNCE_MS = 200;

/**
 * One MCP server of a workspace: lazy start, calls bounded by timeouts, a breaker, and an
 * owned link that is closed on stop. `start()` while starting joins the attempt in flight;
 * `stop()` when stopped does nothing.
 */
export class ServerConnection {
  readonly resolved: ResolvedServer;
  readonly config: ResolvedServer['config'];
  readonly breaker: Breaker;
  readonly #deps: ConnectionDeps;
  #state: State;
  #warnings: string[] = [];
  #refreshTimer: Timer | undefined;
  #lastStatus: string | undefined;
  #lossCounted = new WeakSet<Link>();

  constructor(resolved: ResolvedServer, deps: ConnectionDeps) {
    this.resolved = resolved;
    this.config = resolved.config;
    this.#deps = deps;
    this.breaker = new Breaker({
      server: resolved.config.name,
      clock: deps.clock,
      onUpdate: (update) => {
        if (update.type !== 'status') return deps.onEvent(update);
        this.#emitStatus();
        deps.onEvent({ type: 'tools', server: this.name });
      },
      onCooldownEnd: () => this.#trial(),
    });
    this.#state = resolved.unavailable
      ? { kind: 'unavailable', error: new BlitzError('FAILED_PRECONDITION', `MCP server ${resolved.config.name} cannot start: ${resolved.unavailable}`) }
      : { kind: 'stopped' };
  }

  get name(): string {
    return this.config.name;
  }

  get pid(): number | undefined {
    return this.#state.kind === 'running' ? this.#state.link.pid : undefined;
  }

  status(): ServerStatus {
    return toServerStatus(this.name, this.config.disabled, this.#view(), this.breaker.status(), this.#warnings);
  }

  /** Catalog warnings are computed by the manager; they show in this server's status. */
  setWarnings(warnings: readonly string[]): void {
    this.#warnings = [...warnings];
    this.#emitStatus();
  }

  /** The server's tools, connecting first if need be (MCP-10). Paused servers offer none. */
  async tools(): Promise<Tool[]> {
    if (this.config.disabled) return [];
    if (this.#state.kind === 'running') return this.#state.tools;
    const running = await this.start();
    return running.tools;
  }

  /** The last lines the server wrote to stderr (stdio servers), for errors and diagnostics. */
  stderrTail(lines = 20): string {
    return this.#state.kind === 'running' ? (this.#state.link.stderrTail?.(lines) ?? '') : '';
  }

  /** The tools known now, without connecting. */
  currentTools(): Tool[] {
    return this.#state.kind === 'running' ? this.#state.tools : [];
  }

  start(): Promise<Running> {
    const state = this.#state;
    switch (state.kind) {
      case 'running':
        return Promise.resolve(state);
      case 'starting':
        return state.attempt;
      case 'unavailable':
        return Promise.reject(state.error);
      case 'stopped': {
        if (this.config.disabled) return Promise.reject(new BlitzError('FAILED_PRECONDITION', `MCP server ${this.name} is disabled`));
        this.breaker.admit();
        const attempt = this.#connect();
        this.#set({ kind: 'starting', attempt });
        return attempt;
      }
      default: {
        const _exhaustive: never = state;
        return _exhaustive;
      }
    }
  }

  /** Calls a tool by its original name (MCP-21), bounded by the server's timeout (MCP-31). */
  async callTool(name: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<CallToolResult> {
    const timeoutMs = this.config.timeoutSeconds * 1000;
    const result = await this.request(`MCP tool ${name}`, timeoutMs, opts.signal, (client, signal) =>
      client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: timeoutMs,
        ...(opts.onprogress ? { onprogress: opts.onprogress } : {}),
      }) as Promise<CallToolResult>,
    );
    return result.isError ? this.#explained(result) : result;
  }

  /** A tool error the sandbox caused gets one more line saying so, and which setting opens the path. */
  #explained(result: CallToolResult): CallToolResult {
    const link = this.#state.kind === 'running' ? this.#state.link : undefined;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    const hint = link?.explain?.(text);
    return hint ? { ...result, content: [...result.content, { type: 'text', text: hint }] } : result;
  }

  /** What the server said it offers at initialize; undefined until connected. */
  serverCapabilities(): ServerCapabilities | undefined {
    return this.#state.kind === 'running' ? this.#state.link.client.getServerCapabilities() : undefined;
  }

  /** The server's resources (connecting first); none when it offers no resources. */
  async listResources(signal?: AbortSignal): Promise<Resource[]> {
    await this.start();
    if (!this.serverCapabilities()?.resources) return [];
    const timeout = this.config.startupTimeoutSeconds * 1000;
    return (await this.request(`MCP server ${this.name} resources/list`, timeout, signal, (c, s) => listAllResources(c, { timeout, signal: s }))).items;
  }

  async listResourceTemplates(signal?: AbortSignal): Promise<ResourceTemplate[]> {
    await this.start();
    if (!this.serverCapabilities()?.resources) return [];
    const timeout = this.config.startupTimeoutSeconds * 1000;
    return (await this.request(`MCP server ${this.name} resources/templates/list`, timeout, signal, (c, s) => listAllResourceTemplates(c, { timeout, signal: s }))).items;
  }

  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const timeout = this.config.timeoutSeconds * 1000;
    return this.request(`MCP resource ${uri}`, timeout, signal, (c, s) => c.readResource({ uri }, { timeout, signal: s }));
  }

  async listPrompts(signal?: AbortSignal): Promise<Prompt[]> {
    await this.start();
    if (!this.serverCapabilities()?.prompts) return [];
    const timeout = this.config.startupTimeoutSeconds * 1000;
    return (await this.request(`MCP server ${this.name} prompts/list`, timeout, signal, (c, s) => listAllPrompts(c, { timeout, signal: s }))).items;
  }

  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    const timeout = this.config.timeoutSeconds * 1000;
    return this.request(`MCP prompt ${name}`, timeout, signal, (c, s) => c.getPrompt({ name, arguments: args }, { timeout, signal: s }));
  }

  /**
   * Runs one request on the live client: admitted by the breaker, failing at once if the
   * server dies meanwhile, and counted as success or transport failure.
   */
  async request<T>(label: string, timeoutMs: number, signal: AbortSignal | undefined, fn: (client: Client, signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    try {
      return await this.#requestOnce(label, timeoutMs, signal, fn);
    } catch (err) {
      if (!(err instanceof SessionExpired)) throw err;
      // The remote server restarted and forgot our session, so it did not take the request:
      // initialize afresh and send it once more.
      await this.stop();
      return this.#requestOnce(label, timeoutMs, signal, fn);
    }
  }

  async #requestOnce<T>(label: string, timeoutMs: number, signal: AbortSignal | undefined, fn: (client: Client, signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    const running = this.#state.kind === 'running' ? this.#state : await this.start();
    if (this.#state !== running) throw new BlitzError('SERVER_UNAVAILABLE', `MCP server ${this.name} stopped`);
    // Starting the server may take long: a caller who gave up meanwhile must not have it run.
    if (signal?.aborted) throw new BlitzError('CANCELLED', `${label} was cancelled`);
    this.breaker.admit();
    try {
      // No race against `lost` here: when a server dies the SDK fails every request in flight
      // at once (our stdio transport answers them with the exit and its stderr).
      const result = await fn(running.link.client, signal);
      this.breaker.record('success');
      return result;
    } catch (err) {
      if (isSessionExpired(err)) {
        this.breaker.record('success');
        throw new SessionExpired();
      }
      const { error, transportFailure } = classifyFailure(err, { server: this.name, label, timeoutMs, cancelled: signal?.aborted ?? false });
      // The server answered (or the caller gave up): only transport failures count, and
      // every admitted call must record an outcome or a trial would hold the breaker half-open.
      if (!transportFailure) this.breaker.record('success');
      else if (isBlitzError(error, 'SERVER_EXITED')) this.#countLoss(running.link, error.message);
      else this.breaker.record('failure', (error as Error).message);
      if (isBlitzError(error, 'NEEDS_SIGN_IN')) this.#signedOut(running.link, error);
      // The link stays: other tools still work; the status asks for a login with more scope.
      if (error instanceof NeedsMoreAccess && this.#state === running) this.#set({ ...running, moreAccess: error });
      throw error;
    }
  }

  async stop(): Promise<void> {
    this.#refreshTimer?.cancel();
    const state = this.#state;
    if (state.kind === 'starting') {
      await state.attempt.catch(() => undefined);
      return this.stop();
    }
    if (state.kind !== 'running') return;
    this.#set({ kind: 'stopped' });
    await state.link.close();
  }

  /** Stops for good: the connection is being removed. */
  async dispose(): Promise<void> {
    this.breaker.dispose();
    await this.stop();
  }

  async #connect(): Promise<Running> {
    const deadlineMs = this.config.startupTimeoutSeconds * 1000;
    const started = this.#deps.clock.now();
    let link: Link | undefined;
    try {
      link = await this.#deps.connector(this.config, {
        workspace: this.#deps.workspace,
        deadlineMs,
        capabilities: offeredCapabilities(this.#deps.capabilities, this.config),
        prepareClient: (client) => {
          client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#scheduleRefresh());
          client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.#deps.onEvent({ type: 'listChanged', server: this.name, list: 'prompts' }));
          client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.#deps.onEvent({ type: 'listChanged', server: this.name, list: 'resources' }));
          this.#deps.prepareClient?.(client, this.config);
        },
      });
      const left = Math.max(1, deadlineMs - (this.#deps.clock.now() - started));
      const listed = await listAllTools(link.client, { timeout: left }).catch((err) => {
        throw classifyFailure(err, { server: this.name, label: `MCP server ${this.name} tools/list`, timeoutMs: deadlineMs, cancelled: false }).error;
      });
      const running: Running = { kind: 'running', link, tools: listed.items };
      if (listed.truncated) this.#warnings = [...this.#warnings, listed.truncated];
      const connected = link;
      void link.lost.then((error) => this.#onLost(connected, error));
      // The outcome first, so a trial's success reads "recovered, connected" and never shows
      // the server running but still paused.
      this.breaker.record('success');
      this.#set(running);
      // Some servers add tools once they know the client (after initialize): look again.
      if (link.client.getServerCapabilities()?.tools?.listChanged) this.#scheduleRefresh();
      return running;
    } catch (err) {
      await link?.close().catch(() => undefined);
      const error = isBlitzError(err) ? err : new BlitzError('SERVER_UNAVAILABLE', `MCP server ${this.name} failed to start: ${(err as Error).message}`, { cause: err });
      // A server asking for a sign-in answered: no failure, and every admitted start records an
      // outcome, or a trial it ended would hold the breaker half-open ("retrying now") for good.
      if (error.code === 'NEEDS_SIGN_IN' || error.code === 'NEEDS_MORE_ACCESS') this.breaker.record('success');
      else this.breaker.record('failure', error.message);
      if (this.#state.kind === 'starting') this.#set({ kind: 'stopped', lastError: error });
      throw error;
    }
  }

  /**
   * A pause ended: make the trial call now rather than wait for a client's (MCP-32), so the
   * server recovers, or pauses again for twice as long, and the user hears it either way.
   * A live link is pinged; with none (it exited, or never started) starting it is the trial:
   * initialize and list its tools. A server that answers the ping with an error still
   * answered, which is all a trial must show. The breaker records and announces the outcome;
   * a client's call that took the trial first makes this one a no-op.
   */
  #trial(): void {
    if (this.config.disabled) return;
    const timeoutMs = this.config.startupTimeoutSeconds * 1000;
    // Async, so that `start()` refusing at once (the trial already taken) is a rejection too.
    const attempt = async () => {
      if (this.#state.kind !== 'running') return this.start();
      return this.request(`MCP server ${this.name} ping`, timeoutMs, undefined, (client, signal) => client.ping({ timeout: timeoutMs, ...(signal ? { signal } : {}) }));
    };
    attempt().catch(() => undefined);
  }

  /** The server died by itself: forget the link so the next call starts a fresh process (MCP-11). */
  #onLost(link: Link, error: BlitzError): void {
    const state = this.#state;
    if (state.kind !== 'running' || state.link !== link) return;
    this.#refreshTimer?.cancel();
    this.#set({ kind: 'stopped', lastError: error });
    this.#countLoss(link, error.message);
    void link.close();
    this.#deps.onEvent({ type: 'tools', server: this.name });
  }

  /**
   * The server refused every token we have (revoked, signed out): drop the link so the state
   * says "needs sign-in" and the next use connects afresh with whatever sign-in there is then.
   * Not a failure for the breaker: only the user can fix it.
   */
  #signedOut(link: Link, error: BlitzError): void {
    const state = this.#state;
    if (state.kind !== 'running' || state.link !== link) return;
    this.#refreshTimer?.cancel();
    this.#set({ kind: 'stopped', lastError: error });
    void link.close();
    this.#deps.onEvent({ type: 'tools', server: this.name });
  }

  /** A dead server is one failure, whether a call in flight or the exit itself tells us first. */
  #countLoss(link: Link, reason: string): void {
    if (this.#lossCounted.has(link)) return;
    this.#lossCounted.add(link);
    this.breaker.record('failure', reason);
  }

  #scheduleRefresh(): void {
    this.#refreshTimer?.cancel();
    this.#refreshTimer = this.#deps.clock.setTimeout(() => void this.#refresh(), REFRESH_DEBOUNCE_MS);
  }

  /** Lists again after `tools/list_changed`; a failed refresh keeps the previous catalog. */
  async #refresh(): Promise<void> {
    const state = this.#state;
    if (state.kind !== 'running') return;
    try {
      const listed = await listAllTools(state.link.client, { timeout: this.config.startupTimeoutSeconds * 1000 });
      if (this.#state !== state) return;
      if (JSON.stringify(listed.items) === JSON.stringify(state.tools)) return;
      this.#set({ ...state, tools: listed.items });
      this.#deps.onEvent({ type: 'tools', server: this.name });
    } catch {
      // The previous tools stay; a dead server is noticed through `lost`.
    }
  }

  /** The one place the state changes; it emits the status when it changed. */
  #set(state: State): void {
    this.#state = state;
    this.#emitStatus();
  }

  #emitStatus(): void {
    const status = this.status();
    const key = JSON.stringify(status);
    if (key === this.#lastStatus) return;
    this.#lastStatus = key;
    this.#deps.onEvent({ type: 'status', status });
  }

  #view(): ConnectionView {
    const s = this.#state;
    switch (s.kind) {
      case 'stopped':
        if (!s.lastError) return { kind: 'stopped' };
        return {
          kind: 'stopped',
          lastError: {
            message: s.lastError.message,
            needsSignIn: s.lastError.code === 'NEEDS_SIGN_IN',
            // Refused at connect (initialize or tools/list) for want of a scope.
            ...(s.lastError instanceof NeedsMoreAccess ? { moreAccessScope: s.lastError.scope } : {}),
          },
        };
      case 'starting':
        return { kind: 'starting' };
      case 'running':
        return {
          kind: 'running',
          tools: s.tools.map((t) => t.name),
          ...(s.link.pid === undefined ? {} : { pid: s.link.pid }),
          ...(s.moreAccess ? { moreAccess: { message: s.moreAccess.message, scope: s.moreAccess.scope } } : {}),
        };
      case 'unavailable':
        return { kind: 'failed', message: s.error.message, needsSignIn: false };
      default: {
        const _exhaustive: never = s;
        return _exhaustive;
      }
    }
  }
}

class SessionExpired extends Error {}

/**
 * What Blitz offers one server as a client: sampling only where its settings allow it
 * (MCP-37); no roots for `roots = false`, so the server keeps the folders it was given.
 */
export function offeredCapabilities(base: ClientCapabilities | undefined, config: ServerConfig): ClientCapabilities {
  const { roots, ...rest } = base ?? {};
  return { ...rest, ...(config.sampling ? { sampling: {} } : {}), ...(roots && config.roots !== false ? { roots } : {}) };
}
