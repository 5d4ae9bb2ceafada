import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ClientCapabilities,
  type GetPromptResult,
  type Progress,
  type RequestId,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { Breaker, type BreakerNotice, type BreakerOutcome } from '../breaker/breaker.js';
import { causeOf } from '../causes/server-cause.js';
import type { Clock } from '@blitz/clock';
import { launchFingerprint } from '../config/launch-settings.js';
import type { ResolvedServer } from '../config/resolve-server.js';
import type { ServerConfig } from '../config/server-config.js';
import { BlitzError, isBlitzError } from '../errors/blitz-error.js';
import type { CallSignal } from '../fast-lane/call-signal.js';
import type { Caller, RequestOwner } from './caller.js';
import { CallsInFlight, type SessionRequest } from './calls-in-flight.js';
import { offeredCapabilities } from './offered-capabilities.js';
import { DirectToolCalls } from '../fast-lane/direct-tool-calls.js';
import { classifyFailure } from './call-errors.js';
import { NeedsMoreAccess } from './http/http-failure.js';
import { isSessionExpired } from './http/session-expired.js';
import type { Connector } from './connector.js';
import type { Link } from './link.js';
import { toView, type ConnectionState, type Connected } from './connection-state.js';
import { listingWarnings } from './listing-warnings.js';
import { listAllPrompts, listAllResources, listAllResourceTemplates, listAllTools, type Listed } from './list-all.js';
import { ShownStatus } from './shown-status.js';
import { startLink } from './start-link.js';
import { toServerStatus, type ServerStatus } from './server-status.js';

export type ConnectionEvent =
  /**
   * The one event a change emits (of the connection's state, its breaker's or its warnings):
   * the new status, and whether the tools it offers may have changed with it (a new
   * listing, a crash, a stop, the breaker hiding or offering them again).
   */
  | { type: 'status'; status: ServerStatus; toolsChanged: boolean }
  | { type: 'notice'; notice: BreakerNotice }
  | { type: 'failure'; server: string; reason: string }
  /** The server changed its prompts or resources; clients should list them again. */
  | { type: 'listChanged'; server: string; list: 'prompts' | 'resources' };

export interface ConnectionDeps {
  connector: Connector;
  clock: Clock;
  workspace: string;
  onEvent(event: ConnectionEvent): void;
  /**
   * Handlers for the server's own requests (elicitation, sampling, roots), set by the hub;
   * `ownerOf` tells whose call a request (by its id) belongs to.
   */
  prepareClient?(client: Client, server: ServerConfig, ownerOf: (serverRequestId: RequestId) => RequestOwner): void;
  capabilities?: ClientCapabilities;
  /** The server's requests in flight, registered once each (its pool entry's); a new register without. */
  calls?: CallsInFlight;
}

export interface CallOptions {
  signal?: CallSignal;
  onprogress?: (progress: Progress) => void;
  /** Who asked: the server's own requests during the call go to them (MCP-37). */
  caller?: Caller;
  /** The client's request this call serves: a log message sent meanwhile goes to its session. */
  request?: SessionRequest;
  /**
   * The tool as its server listed it, resolved by the caller: one without an output schema or
   * task support may go by the link's direct lane (`DirectToolCalls.takes`); without it, the SDK's.
   */
  tool?: Tool;
}

/** How long to wait after `tools/list_changed` before listing again, so a burst lists once. */
const REFRESH_DEBOUNCE_MS = 200;

/** A failure the breaker counts: its message, and its facts for the words the user sees. */
function failureOf(error: unknown): Exclude<BreakerOutcome, 'success'> {
  if (isBlitzError(error)) return { failure: error.message, cause: causeOf(error) };
  const message = error instanceof Error ? error.message : String(error);
  return { failure: message, cause: { code: 'OTHER', message } };
}

/** A live link for one use. `cold`: it was started for it, and that start was its admission. */
interface Ready {
  running: Connected;
  cold: boolean;
}

/**
 * One MCP server of a workspace: lazy start, calls bounded by timeouts, a breaker, and an
 * owned link that is closed on stop. `start()` while starting joins the attempt in flight;
 * `stop()` when stopped does nothing.
 */
export class ServerConnection {
  /** Replaced by `adopt` when only the hub's policy in it changes. */
  #resolved: ResolvedServer;
  readonly breaker: Breaker;
  readonly #deps: ConnectionDeps;
  /** Every request in flight to the server; a tool call is registered here by `callTool`, once. */
  readonly calls: CallsInFlight;
  #state: ConnectionState;
  /** What the last `status` event showed, so a change that shows nothing new emits nothing (shown-status.ts). */
  readonly #shown = new ShownStatus();
  #lossCounted = new WeakSet<Link>();
  /** Failed starts' processes still being stopped in the background; `dispose` waits for them. */
  readonly #stopping = new Set<Promise<void>>();
  /** Ends the start in flight: a connection being removed does not wait out its startup timeout. */
  #abortStart: AbortController | undefined;

  constructor(resolved: ResolvedServer, deps: ConnectionDeps) {
    this.#resolved = resolved;
    this.#deps = deps;
    this.calls = deps.calls ?? new CallsInFlight();
    this.breaker = new Breaker({
      server: resolved.config.name,
      clock: deps.clock,
      onUpdate: (update) => {
        if (update.type !== 'status') return deps.onEvent(update);
        // The breaker moved by itself (a pause ended, a trial was admitted): the status shows it.
        this.#transition(this.#state);
      },
      onCooldownEnd: () => this.#trial(),
    });
    this.#state = resolved.unavailable
      ? {
          kind: 'unavailable',
          error: new BlitzError('FAILED_PRECONDITION', `MCP server ${resolved.config.name} cannot start: ${resolved.unavailable}`, {
            serverCause: { code: 'CANNOT_START', detail: resolved.unavailable },
          }),
        }
      : { kind: 'idle' };
  }

  get resolved(): ResolvedServer {
    return this.#resolved;
  }

  get config(): ServerConfig {
    return this.#resolved.config;
  }

  get name(): string {
    return this.config.name;
  }

  /**
   * Takes a settings edit that changes only the hub's policy (approval, the tools allow-list,
   * prefix, exposure, agents, timeouts): the process keeps running, calls in flight go on, and
   * the next catalog, approval and call read the new settings (issue 26.1).
   */
  adopt(resolved: ResolvedServer): void {
    if (launchFingerprint(resolved) !== launchFingerprint(this.#resolved)) {
      throw new BlitzError('INTERNAL', `MCP server ${this.name}: a change to how it runs needs a new connection`);
    }
    this.#resolved = resolved;
  }

  /** Connected, its tools known: a listing need not wait for it. */
  get ready(): boolean {
    return this.#state.kind === 'connected';
  }

  /** Its state's kind alone (stopped, starting, running, …): what the catalog cache goes by. */
  get phase(): ConnectionState['kind'] {
    return this.#state.kind;
  }

  /** Stopped to save memory after its idle timeout, not started again since (issue 32.1). */
  get reaped(): boolean {
    return this.#state.kind === 'idle' && this.#state.reaped === true;
  }

  get pid(): number | undefined {
    return this.#state.kind === 'connected' ? this.#state.link.pid : undefined;
  }

  status(): ServerStatus {
    const state = this.#state;
    // Catalog warnings depend on the workspace's other servers: the manager adds them.
    const warnings =
      state.kind === 'connected' ? listingWarnings(state.tools, state.link.client.getServerCapabilities(), state.listingWarning) : [];
    return toServerStatus(this.name, this.config.disabled, toView(state), this.breaker.status(), warnings);
  }

  /** The server's tools, connecting first if need be (MCP-10). Paused servers offer none. */
  async tools(): Promise<Tool[]> {
    if (this.config.disabled) return [];
    if (this.#state.kind === 'connected') return this.#state.tools;
    const running = await this.start();
    return running.tools;
  }

  /** The last lines the server wrote to stderr (stdio servers), for errors and diagnostics. */
  stderrTail(lines = 20): string {
    return this.#state.kind === 'connected' ? (this.#state.link.stderrTail?.(lines) ?? '') : '';
  }

  /** The tools known now, without connecting. */
  currentTools(): Tool[] {
    return this.#state.kind === 'connected' ? this.#state.tools : [];
  }

  /** Starts the server once admitted by the breaker; the start is the admission of the use waiting for it. */
  start(): Promise<Connected> {
    const state = this.#state;
    switch (state.kind) {
      case 'connected':
        return Promise.resolve(state);
      case 'starting':
        return state.attempt;
      case 'unavailable':
        return Promise.reject(state.error);
      case 'idle':
      case 'failed':
      case 'needsSignIn': {
        if (this.config.disabled) return Promise.reject(new BlitzError('FAILED_PRECONDITION', `MCP server ${this.name} is disabled`));
        this.breaker.admit();
        this.#abortStart = new AbortController();
        const attempt = this.#connect(this.#abortStart.signal);
        this.#transition({ kind: 'starting', attempt });
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
    const call = this.calls.enter({ ...(opts.request ? { request: opts.request } : {}), ...(opts.caller ? { caller: opts.caller } : {}) });
    try {
      const result = await this.request(`MCP tool ${name}`, timeoutMs, opts.signal, (client, signal, link) =>
        link.callTool && DirectToolCalls.takes(opts.tool)
          ? link.callTool(name, args, {
              timeoutMs,
              ...(signal ? { signal } : {}),
              ...(opts.onprogress ? { onprogress: opts.onprogress } : {}),
            })
          : (client.callTool({ name, arguments: args }, undefined, {
              ...(signal ? { signal: signal.toAbortSignal() } : {}),
              timeout: timeoutMs,
              ...(opts.onprogress ? { onprogress: opts.onprogress } : {}),
              // Sent with the request so an HTTP link can tell which call a server's request is about.
              ...(opts.caller ? { relatedRequestId: call.key } : {}),
            }) as Promise<CallToolResult>),
      );
      return result.isError ? this.#explained(result) : result;
    } finally {
      call.leave();
    }
  }

  /** A tool error the sandbox caused gets one more line saying so, and which setting opens the path. */
  #explained(result: CallToolResult): CallToolResult {
    const link = this.#state.kind === 'connected' ? this.#state.link : undefined;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    const hint = link?.explain?.(text);
    return hint ? { ...result, content: [...result.content, { type: 'text', text: hint }] } : result;
  }

  /** The client of the live link; undefined until connected. */
  get client(): Client | undefined {
    return this.#state.kind === 'connected' ? this.#state.link.client : undefined;
  }

  /** What the server said it offers at initialize; undefined until connected. */
  serverCapabilities(): ServerCapabilities | undefined {
    return this.#state.kind === 'connected' ? this.#state.link.client.getServerCapabilities() : undefined;
  }

  /** The server's resources (connecting first); none when it offers no resources. */
  listResources(signal?: AbortSignal): Promise<Resource[]> {
    return this.#list('resources', 'resources/list', signal, listAllResources);
  }

  listResourceTemplates(signal?: AbortSignal): Promise<ResourceTemplate[]> {
    return this.#list('resources', 'resources/templates/list', signal, listAllResourceTemplates);
  }

  /** `related`: the key of the read in `calls`, so an HTTP link can tell which read a server's request is about. */
  readResource(uri: string, signal?: AbortSignal, related?: string): Promise<ReadResourceResult> {
    const timeout = this.config.timeoutSeconds * 1000;
    return this.request(`MCP resource ${uri}`, timeout, signal, (c, s) =>
      c.readResource({ uri }, { timeout, signal: s, ...(related ? { relatedRequestId: related } : {}) }),
    );
  }

  listPrompts(signal?: AbortSignal): Promise<Prompt[]> {
    return this.#list('prompts', 'prompts/list', signal, listAllPrompts);
  }

  /** `related`: as for `readResource`. */
  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal, related?: string): Promise<GetPromptResult> {
    const timeout = this.config.timeoutSeconds * 1000;
    return this.request(`MCP prompt ${name}`, timeout, signal, (c, s) =>
      c.getPrompt({ name, arguments: args }, { timeout, signal: s, ...(related ? { relatedRequestId: related } : {}) }),
    );
  }

  /**
   * Runs one request on the live client, connecting first if need be: admitted by the
   * breaker once (a cold use by the start it waits for), failing at once if the server dies
   * meanwhile, and counted as success or transport failure.
   */
  request<T, S extends Cancelled = AbortSignal>(label: string, timeoutMs: number, signal: S | undefined, fn: Run<T, S>): Promise<T> {
    return this.#request(label, timeoutMs, signal, fn);
  }

  async #request<T, S extends Cancelled = AbortSignal>(
    label: string,
    timeoutMs: number,
    signal: S | undefined,
    fn: Run<T, S>,
    ready?: Ready,
  ): Promise<T> {
    try {
      return await this.#requestOnce(label, timeoutMs, signal, fn, ready ?? (await this.#ready()));
    } catch (err) {
      if (!(err instanceof SessionExpired)) throw err;
      // The remote server restarted and forgot our session, so it did not take the request:
      // initialize afresh and send it once more.
      await this.stop();
      return this.#requestOnce(label, timeoutMs, signal, fn, await this.#ready());
    }
  }

  /** A list the server offers only with a capability: none without it, and then nothing is admitted or sent. */
  async #list<T>(
    capability: 'resources' | 'prompts',
    method: string,
    signal: AbortSignal | undefined,
    list: (client: Client, opts: { timeout: number; signal?: AbortSignal }) => Promise<Listed<T>>,
  ): Promise<T[]> {
    const ready = await this.#ready();
    if (!ready.running.link.client.getServerCapabilities()?.[capability]) return [];
    const timeout = this.config.startupTimeoutSeconds * 1000;
    const listed = await this.#request(
      `MCP server ${this.name} ${method}`,
      timeout,
      signal,
      (c, s) => list(c, { timeout, ...(s ? { signal: s } : {}) }),
      ready,
    );
    return listed.items;
  }

  async #ready(): Promise<Ready> {
    const state = this.#state;
    if (state.kind === 'connected') return { running: state, cold: false };
    return { running: await this.start(), cold: true };
  }

  async #requestOnce<T, S extends Cancelled>(
    label: string,
    timeoutMs: number,
    signal: S | undefined,
    fn: Run<T, S>,
    ready: Ready,
  ): Promise<T> {
    const { link } = ready.running;
    if (!this.#runningOn(link)) throw new BlitzError('SERVER_UNAVAILABLE', `MCP server ${this.name} stopped`);
    // Starting the server may take long: a caller who gave up meanwhile must not have it run.
    if (signal?.aborted) throw new BlitzError('CANCELLED', `${label} was cancelled`);
    // A cold use was admitted with its start, whose outcome is already recorded.
    if (!ready.cold) this.breaker.admit();
    try {
      // No race against `lost` here: when a server dies the SDK fails every request in flight
      // at once (our stdio transport answers them with the exit and its stderr).
      const result = await fn(link.client, signal, link);
      this.#transition(this.#state, 'success');
      return result;
    } catch (err) {
      if (isSessionExpired(err)) {
        this.#transition(this.#state, 'success');
        throw new SessionExpired();
      }
      const { error, transportFailure } = classifyFailure(err, {
        server: this.name,
        label,
        timeoutMs,
        cancelled: signal?.aborted ?? false,
      });
      // The server answered (or the caller gave up): only transport failures count, and
      // every admitted call must record an outcome or a trial would hold the breaker half-open.
      const outcome: BreakerOutcome | undefined = !transportFailure
        ? 'success'
        : isBlitzError(error, 'SERVER_EXITED')
          ? this.#loss(link, error)
          : failureOf(error);
      const current = this.#runningOn(link);
      if (current && isBlitzError(error, 'NEEDS_SIGN_IN')) {
        // Every token we have was refused (revoked, signed out): drop the link, so the next use
        // connects afresh with whatever sign-in there is then. Not a failure: only the user can fix it.
        this.#transition({ kind: 'needsSignIn', error }, outcome);
        void link.close();
      } else if (current && error instanceof NeedsMoreAccess) {
        // The link stays: other tools still work; the status asks for a login with more scope.
        this.#transition({ ...current, moreAccess: error }, outcome);
      } else {
        this.#transition(this.#state, outcome);
      }
      throw error;
    }
  }

  async stop(): Promise<void> {
    const state = this.#state;
    if (state.kind === 'starting') {
      await state.attempt.catch(() => undefined);
      return this.stop();
    }
    if (state.kind !== 'connected') return;
    this.#transition({ kind: 'idle' });
    await state.link.close();
  }

  /**
   * Stops an unused server to save memory (issue 32.1): its next use starts it again. Not a
   * failure: the breaker records nothing, and its exit is not a loss (`#onLost` finds the link gone).
   */
  async reap(): Promise<void> {
    const state = this.#state;
    if (state.kind !== 'connected') return;
    this.#transition({ kind: 'idle', reaped: true });
    await state.link.close();
  }

  /**
   * Stops it for a fresh start at the next use, and forgets that it wanted a sign-in: the user
   * may have given one since (`blitz mcp login`), so it no longer says to (issue 26.2).
   */
  async restart(): Promise<void> {
    await this.stop();
    if (this.#state.kind === 'needsSignIn') this.#transition({ kind: 'idle' });
  }

  /** Stops for good: the connection is being removed. */
  async dispose(): Promise<void> {
    this.breaker.dispose();
    this.#abortStart?.abort();
    await this.stop();
    await Promise.all(this.#stopping);
  }

  /** Owns a failed start's stopping until it is done: no process outlives its connection. */
  #stopInBackground(done: Promise<void>): void {
    this.#stopping.add(done);
    void done.finally(() => this.#stopping.delete(done));
  }

  async #connect(signal: AbortSignal): Promise<Connected> {
    try {
      const { link, listed } = await startLink(this.config, {
        connector: this.#deps.connector,
        clock: this.#deps.clock,
        workspace: this.#deps.workspace,
        capabilities: offeredCapabilities(this.#deps.capabilities, this.config),
        stopping: (done) => this.#stopInBackground(done),
        signal,
        prepareClient: (client) => {
          client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#scheduleRefresh());
          client.setNotificationHandler(PromptListChangedNotificationSchema, () =>
            this.#deps.onEvent({ type: 'listChanged', server: this.name, list: 'prompts' }),
          );
          client.setNotificationHandler(ResourceListChangedNotificationSchema, () =>
            this.#deps.onEvent({ type: 'listChanged', server: this.name, list: 'resources' }),
          );
          this.#deps.prepareClient?.(client, this.config, (id) =>
            this.calls.ownerOf(this.#state.kind === 'connected' ? this.#state.link.relatedTo?.(id) : undefined),
          );
        },
      });
      const running: Connected = {
        kind: 'connected',
        link,
        tools: listed.items,
        ...(listed.truncated ? { listingWarning: listed.truncated } : {}),
      };
      void link.lost.then((error) => this.#onLost(link, error));
      // With the outcome in the same transition, a trial's success reads "recovered, connected"
      // and never shows the server running but still paused.
      this.#transition(running, 'success');
      // Some servers add tools once they know the client (after initialize): look again. This
      // also covers a `list_changed` sent while starting, which finds no running state to refresh.
      if (link.client.getServerCapabilities()?.tools?.listChanged) this.#scheduleRefresh();
      return running;
    } catch (err) {
      const error = isBlitzError(err)
        ? err
        : new BlitzError('SERVER_UNAVAILABLE', `MCP server ${this.name} failed to start: ${(err as Error).message}`, { cause: err });
      // A server asking for a sign-in answered: no failure, and every admitted start records an
      // outcome, or a trial it ended would hold the breaker half-open ("retrying now") for good.
      // Ended by dispose: the connection is going, and its breaker must not start a pause.
      if (signal.aborted) {
        this.#transition({ kind: 'failed', error });
        throw error;
      }
      const signIn = error.code === 'NEEDS_SIGN_IN' || error instanceof NeedsMoreAccess;
      const next: ConnectionState = signIn ? { kind: 'needsSignIn', error } : { kind: 'failed', error };
      this.#transition(this.#state.kind === 'starting' ? next : this.#state, signIn ? 'success' : failureOf(error));
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
      if (this.#state.kind !== 'connected') return this.start();
      return this.request(`MCP server ${this.name} ping`, timeoutMs, undefined, (client) => client.ping({ timeout: timeoutMs }));
    };
    attempt().catch(() => undefined);
  }

  /** The server died by itself: forget the link so the next call starts a fresh process (MCP-11). */
  #onLost(link: Link, error: BlitzError): void {
    if (!this.#runningOn(link)) return;
    this.#transition({ kind: 'failed', error }, this.#loss(link, error));
    void link.close();
  }

  /** A dead server is one failure, whether a call in flight or the exit itself tells us first. */
  #loss(link: Link, error: BlitzError): BreakerOutcome | undefined {
    if (this.#lossCounted.has(link)) return undefined;
    this.#lossCounted.add(link);
    return failureOf(error);
  }

  /** The server said its tools changed: list them again once the burst is over. */
  #scheduleRefresh(): void {
    const state = this.#state;
    if (state.kind !== 'connected') return;
    const { link } = state;
    const refresh = this.#deps.clock.setTimeout(() => {
      const current = this.#runningOn(link);
      if (current?.refresh !== refresh) return;
      const { refresh: _fired, ...rest } = current;
      this.#transition(rest);
      void this.#refresh(link);
    }, REFRESH_DEBOUNCE_MS);
    // The timer it replaces is cancelled by the transition.
    this.#transition({ ...state, refresh });
  }

  /** Lists again after `tools/list_changed`; a failed refresh keeps the previous catalog. */
  async #refresh(link: Link): Promise<void> {
    if (!this.#runningOn(link)) return;
    try {
      const listed = await listAllTools(link.client, { timeout: this.config.startupTimeoutSeconds * 1000 });
      const current = this.#runningOn(link);
      if (!current || JSON.stringify(listed.items) === JSON.stringify(current.tools)) return;
      const { listingWarning: _old, ...rest } = current;
      this.#transition({ ...rest, tools: listed.items, ...(listed.truncated ? { listingWarning: listed.truncated } : {}) });
    } catch {
      // The previous tools stay; a dead server is noticed through `lost`.
    }
  }

  /** The running state on this link, if the connection is still on it. */
  #runningOn(link: Link): Connected | undefined {
    const state = this.#state;
    return state.kind === 'connected' && state.link === link ? state : undefined;
  }

  /**
   * The one place the state changes and the one place a status leaves (Zed's
   * `update_server_state`): the new state (the same one when only the breaker or the
   * warnings moved), then the outcome for the breaker, then one `status` event if what the
   * outside sees changed. A running state's refresh timer goes with it.
   */
  #transition(next: ConnectionState, outcome?: BreakerOutcome): void {
    const previous = this.#state;
    this.#state = next;
    if (previous.kind === 'connected' && previous.refresh && !(next.kind === 'connected' && next.refresh === previous.refresh))
      previous.refresh.cancel();
    // Notices and failures go out as the breaker makes them; its status comes with ours below.
    if (outcome !== undefined) this.breaker.settle(outcome);
    const change = this.#shown.next(next, this.breaker.status(), this.config.disabled, () => this.status());
    if (change) this.#deps.onEvent({ type: 'status', ...change });
  }
}

/** What a request runs on the live link: the SDK client, or the link itself (`Link.callTool`). */
type Run<T, S = AbortSignal> = (client: Client, signal: S | undefined, link: Link) => Promise<T>;

/** What a request needs of its cancellation: an AbortSignal, or a tool call's CallSignal. */
type Cancelled = { readonly aborted: boolean };

class SessionExpired extends Error {}
