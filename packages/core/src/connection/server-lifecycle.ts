import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { Breaker, type BreakerOutcome } from '../breaker/breaker.js';
import { launchFingerprint } from '../config/launch-settings.js';
import type { ResolvedServer } from '../config/resolve-server.js';
import type { ServerConfig } from '../config/server-config.js';
import { BlitzError, isBlitzError } from '../errors/blitz-error.js';
import { failureOf } from './call-errors.js';
import { CallsInFlight } from './calls-in-flight.js';
import type { ConnectionDeps } from './connection-deps.js';
import { toView, type ConnectionState, type Connected } from './connection-state.js';
import { NeedsMoreAccess } from './http/http-failure.js';
import type { Link } from './link.js';
import { listingWarnings } from './listing-warnings.js';
import { listAllTools } from './list-all.js';
import { offeredCapabilities } from './offered-capabilities.js';
import { toServerStatus, type ServerStatus } from './server-status.js';
import { ShownStatus } from './shown-status.js';
import { startLink } from './start-link.js';

/** How long to wait after `tools/list_changed` before listing again, so a burst lists once. */
const REFRESH_DEBOUNCE_MS = 200;

/** A live link for one use. `cold`: it was started for it, and that start was its admission. */
export interface Ready {
  running: Connected;
  cold: boolean;
}

/**
 * One MCP server's life (its state machine): lazy start, a breaker, and an owned link that is
 * closed on stop. `start()` while starting joins the attempt in flight; `stop()` when stopped
 * does nothing. `ServerConnection` adds the requests that run on the live link.
 */
export abstract class ServerLifecycle {
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
        this.transition(this.#state);
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

  protected get state(): ConnectionState {
    return this.#state;
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
        this.transition({ kind: 'starting', attempt });
        return attempt;
      }
      default: {
        const _exhaustive: never = state;
        return _exhaustive;
      }
    }
  }

  /** The client of the live link; undefined until connected. */
  get client(): Client | undefined {
    return this.#state.kind === 'connected' ? this.#state.link.client : undefined;
  }

  /** What the server said it offers at initialize; undefined until connected. */
  serverCapabilities(): ServerCapabilities | undefined {
    return this.#state.kind === 'connected' ? this.#state.link.client.getServerCapabilities() : undefined;
  }

  /** The live link, starting the server first if need be. */
  protected async live(): Promise<Ready> {
    const state = this.#state;
    if (state.kind === 'connected') return { running: state, cold: false };
    return { running: await this.start(), cold: true };
  }

  async stop(): Promise<void> {
    const state = this.#state;
    if (state.kind === 'starting') {
      await state.attempt.catch(() => undefined);
      return this.stop();
    }
    if (state.kind !== 'connected') return;
    this.transition({ kind: 'idle' });
    await this.closeLink(state.link);
  }

  /**
   * Stops an unused server to save memory (issue 32.1): its next use starts it again. Not a
   * failure: the breaker records nothing, and its exit is not a loss (`#onLost` finds the link gone).
   */
  async reap(): Promise<void> {
    const state = this.#state;
    if (state.kind !== 'connected') return;
    this.transition({ kind: 'idle', reaped: true });
    await this.closeLink(state.link);
  }

  /**
   * Stops it for a fresh start at the next use, and forgets that it wanted a sign-in: the user
   * may have given one since (`blitz mcp login`), so it no longer says to (issue 26.2).
   */
  async restart(): Promise<void> {
    await this.stop();
    if (this.#state.kind === 'needsSignIn') this.transition({ kind: 'idle' });
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

  /**
   * Closes a link the state has left, owned until its process is gone: `dispose` waits for it
   * even when nobody awaits the close (a reap, a lost or refused link).
   */
  protected closeLink(link: Link): Promise<void> {
    const closed = link.close();
    this.#stopInBackground(closed.catch(() => undefined));
    return closed;
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
      this.transition(running, 'success');
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
        this.transition({ kind: 'failed', error });
        throw error;
      }
      const signIn = error.code === 'NEEDS_SIGN_IN' || error instanceof NeedsMoreAccess;
      const next: ConnectionState = signIn ? { kind: 'needsSignIn', error } : { kind: 'failed', error };
      this.transition(this.#state.kind === 'starting' ? next : this.#state, signIn ? 'success' : failureOf(error));
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
      return this.ping(timeoutMs);
    };
    attempt().catch(() => undefined);
  }

  /** The server died by itself: forget the link so the next call starts a fresh process (MCP-11). */
  #onLost(link: Link, error: BlitzError): void {
    if (!this.runningOn(link)) return;
    this.transition({ kind: 'failed', error }, this.loss(link, error));
    void this.closeLink(link);
  }

  /** A dead server is one failure, whether a call in flight or the exit itself tells us first. */
  protected loss(link: Link, error: BlitzError): BreakerOutcome | undefined {
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
      const current = this.runningOn(link);
      if (current?.refresh !== refresh) return;
      const { refresh: _fired, ...rest } = current;
      this.transition(rest);
      void this.#refresh(link);
    }, REFRESH_DEBOUNCE_MS);
    // The timer it replaces is cancelled by the transition.
    this.transition({ ...state, refresh });
  }

  /** Lists again after `tools/list_changed`; a failed refresh keeps the previous catalog. */
  async #refresh(link: Link): Promise<void> {
    if (!this.runningOn(link)) return;
    try {
      const listed = await listAllTools(link.client, { timeout: this.config.startupTimeoutSeconds * 1000 });
      const current = this.runningOn(link);
      if (!current || JSON.stringify(listed.items) === JSON.stringify(current.tools)) return;
      const { listingWarning: _old, ...rest } = current;
      this.transition({ ...rest, tools: listed.items, ...(listed.truncated ? { listingWarning: listed.truncated } : {}) });
    } catch {
      // The previous tools stay; a dead server is noticed through `lost`.
    }
  }

  /** The running state on this link, if the connection is still on it. */
  protected runningOn(link: Link): Connected | undefined {
    const state = this.#state;
    return state.kind === 'connected' && state.link === link ? state : undefined;
  }

  /**
   * The one place the state changes and the one place a status leaves (Zed's
   * `update_server_state`): the new state (the same one when only the breaker or the
   * warnings moved), then the outcome for the breaker, then one `status` event if what the
   * outside sees changed. A running state's refresh timer goes with it.
   */
  protected transition(next: ConnectionState, outcome?: BreakerOutcome): void {
    const previous = this.#state;
    this.#state = next;
    if (previous.kind === 'connected' && previous.refresh && !(next.kind === 'connected' && next.refresh === previous.refresh))
      previous.refresh.cancel();
    // Notices and failures go out as the breaker makes them; its status comes with ours below.
    if (outcome !== undefined) this.breaker.settle(outcome);
    const change = this.#shown.next(next, this.breaker.status(), this.config.disabled, () => this.status());
    if (change) this.#deps.onEvent({ type: 'status', ...change });
  }

  /** The trial of a live link after a pause (`#trial`): one request, admitted and recorded like any. */
  protected abstract ping(timeoutMs: number): Promise<unknown>;
}
