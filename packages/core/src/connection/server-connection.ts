import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ResultSchema,
  type CallToolResult,
  type GetPromptResult,
  type Progress,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { BreakerOutcome } from '../breaker/breaker.js';
import { BlitzError, isBlitzError } from '../errors/blitz-error.js';
import type { CallSignal } from '../fast-lane/call-signal.js';
import { declaresTasks, META_CALLER_CAPABILITIES } from '../eras/modern-protocol.js';
import { DirectToolCalls } from '../fast-lane/direct-tool-calls.js';
import { classifyFailure, failureOf } from './call-errors.js';
import type { Caller } from './caller.js';
import type { SessionRequest } from './calls-in-flight.js';
import { NeedsMoreAccess } from './http/http-failure.js';
import { isSessionExpired } from './http/session-expired.js';
import type { Link } from './link.js';
import { listAllPrompts, listAllResources, listAllResourceTemplates, type Listed } from './list-all.js';
import { ServerLifecycle, type Ready } from './server-lifecycle.js';
import { isTaskCreated, toolCallAnswer, type ToolCallAnswer } from './tool-task.js';

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
  /** Answers the client gave with the call before it was asked anything (2026-07-28): sent with the call to a server of that era. */
  inputResponses?: Record<string, unknown>;
}

/**
 * One MCP server of a workspace, and the requests that run on its live link: each bounded by a
 * timeout, admitted by the breaker once and recorded by it (`ServerLifecycle` owns the rest).
 */
export class ServerConnection extends ServerLifecycle {
  /** Calls a tool by its original name (MCP-21), bounded by the server's timeout (MCP-31). */
  async callTool(name: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<ToolCallAnswer> {
    const timeoutMs = this.config.timeoutSeconds * 1000;
    const call = this.calls.enter({ ...(opts.request ? { request: opts.request } : {}), ...(opts.caller ? { caller: opts.caller } : {}) });
    try {
      const result = await this.request(`MCP tool ${name}`, timeoutMs, opts.signal, (client, signal, link) => {
        const modern = link.era === 'modern';
        const answers = modern ? opts.inputResponses : undefined;
        // A 2026-07-28 server is told what the calling client can be asked (modern-server-transport.ts).
        const caller = modern ? opts.caller?.session.getClientCapabilities() : undefined;
        const meta = modern && opts.caller ? { [META_CALLER_CAPABILITIES]: caller ?? {} } : undefined;
        // A client that follows tasks may get one: read as such, whatever the tool's output schema says of results.
        if (declaresTasks(caller))
          return client
            .request(
              { method: 'tools/call', params: { name, arguments: args, ...(answers ? { inputResponses: answers } : {}), _meta: meta } },
              ResultSchema,
              {
                ...(signal ? { signal: signal.toAbortSignal() } : {}),
                timeout: timeoutMs,
                ...(opts.onprogress ? { onprogress: opts.onprogress } : {}),
                relatedRequestId: call.key,
              },
            )
            .then(toolCallAnswer);
        return link.callTool && DirectToolCalls.takes(opts.tool) && answers === undefined
          ? link.callTool(name, args, {
              timeoutMs,
              ...(signal ? { signal } : {}),
              ...(opts.onprogress ? { onprogress: opts.onprogress } : {}),
              // A modern link tells by it which call a server's question is about (stdio has no other way).
              ...(modern && opts.caller ? { relatedRequestId: call.key } : {}),
              ...(meta ? { meta } : {}),
            })
          : (client.callTool(
              { name, arguments: args, ...(answers ? { inputResponses: answers } : {}), ...(meta ? { _meta: meta } : {}) },
              undefined,
              {
                ...(signal ? { signal: signal.toAbortSignal() } : {}),
                timeout: timeoutMs,
                ...(opts.onprogress ? { onprogress: opts.onprogress } : {}),
                // Sent with the request so an HTTP link can tell which call a server's request is about.
                ...(opts.caller ? { relatedRequestId: call.key } : {}),
              },
            ) as Promise<CallToolResult>);
      });
      return !isTaskCreated(result) && result.isError ? this.#explained(result) : result;
    } finally {
      call.leave();
    }
  }

  /**
   * A `tasks/get`, `tasks/update` or `tasks/cancel` of a task this server made, for a client
   * with these capabilities (which declare the tasks extension), bounded by the server's timeout.
   */
  taskRequest(method: string, params: Record<string, unknown>, caller: Record<string, unknown>): Promise<Record<string, unknown>> {
    const timeout = this.config.timeoutSeconds * 1000;
    return this.request<Record<string, unknown>>(`MCP ${method}`, timeout, undefined, (client, signal, link) => {
      if (link.era !== 'modern') throw new BlitzError('NOT_FOUND', `MCP server ${this.name} speaks MCP 2025 now: its tasks are gone`);
      return client.request({ method, params: { ...params, _meta: { [META_CALLER_CAPABILITIES]: caller } } }, ResultSchema, {
        timeout,
        ...(signal ? { signal } : {}),
      });
    });
  }

  /** A tool error the sandbox caused gets one more line saying so, and which setting opens the path. */
  #explained(result: CallToolResult): CallToolResult {
    const link = this.state.kind === 'connected' ? this.state.link : undefined;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    const hint = link?.explain?.(text);
    return hint ? { ...result, content: [...result.content, { type: 'text', text: hint }] } : result;
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
      return await this.#requestOnce(label, timeoutMs, signal, fn, ready ?? (await this.live()));
    } catch (err) {
      if (!(err instanceof SessionExpired)) throw err;
      // The remote server restarted and forgot our session, so it did not take the request:
      // initialize afresh and send it once more.
      await this.stop();
      return this.#requestOnce(label, timeoutMs, signal, fn, await this.live());
    }
  }

  /** A list the server offers only with a capability: none without it, and then nothing is admitted or sent. */
  async #list<T>(
    capability: 'resources' | 'prompts',
    method: string,
    signal: AbortSignal | undefined,
    list: (client: Client, opts: { timeout: number; signal?: AbortSignal }) => Promise<Listed<T>>,
  ): Promise<T[]> {
    const ready = await this.live();
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

  async #requestOnce<T, S extends Cancelled>(
    label: string,
    timeoutMs: number,
    signal: S | undefined,
    fn: Run<T, S>,
    ready: Ready,
  ): Promise<T> {
    const { link } = ready.running;
    if (!this.runningOn(link)) throw new BlitzError('SERVER_UNAVAILABLE', `MCP server ${this.name} stopped`);
    // Starting the server may take long: a caller who gave up meanwhile must not have it run.
    if (signal?.aborted) throw new BlitzError('CANCELLED', `${label} was cancelled`);
    // A cold use was admitted with its start, whose outcome is already recorded.
    if (!ready.cold) this.breaker.admit();
    try {
      // No race against `lost` here: when a server dies the SDK fails every request in flight
      // at once (our stdio transport answers them with the exit and its stderr).
      const result = await fn(link.client, signal, link);
      this.transition(this.state, 'success');
      return result;
    } catch (err) {
      if (isSessionExpired(err)) {
        this.transition(this.state, 'success');
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
          ? this.loss(link, error)
          : failureOf(error);
      const current = this.runningOn(link);
      if (current && isBlitzError(error, 'NEEDS_SIGN_IN')) {
        // Every token we have was refused (revoked, signed out): drop the link, so the next use
        // connects afresh with whatever sign-in there is then. Not a failure: only the user can fix it.
        this.transition({ kind: 'needsSignIn', error }, outcome);
        void this.closeLink(link);
      } else if (current && error instanceof NeedsMoreAccess) {
        // The link stays: other tools still work; the status asks for a login with more scope.
        this.transition({ ...current, moreAccess: error }, outcome);
      } else {
        this.transition(this.state, outcome);
      }
      throw error;
    }
  }

  protected ping(timeoutMs: number): Promise<unknown> {
    return this.request(`MCP server ${this.name} ping`, timeoutMs, undefined, (client) => client.ping({ timeout: timeoutMs }));
  }
}

/** What a request runs on the live link: the SDK client, or the link itself (`Link.callTool`). */
type Run<T, S = AbortSignal> = (client: Client, signal: S | undefined, link: Link) => Promise<T>;

/** What a request needs of its cancellation: an AbortSignal, or a tool call's CallSignal. */
type Cancelled = { readonly aborted: boolean };

class SessionExpired extends Error {}
