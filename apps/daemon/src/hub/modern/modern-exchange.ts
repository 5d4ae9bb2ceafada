import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage, type JSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import {
  answerId,
  INVALID_PARAMS,
  META_INPUT_KEY,
  META_INPUT_RESPONSES,
  META_SUBSCRIPTION_ID,
  MISSING_CAPABILITY,
  type ParamHeader,
} from '@blitz/core';
import type { Timer } from '@blitz/clock';
import { discoverResult, modernAnswer, type ServerInfo } from './modern-result.js';
import { nameOf, type ModernMeta } from './modern-request.js';
import { INPUT_WAIT_MS, type InputWaits, type Waiting } from './input-waits.js';
import { checkInputResponses, inputKey, type Asked } from './input-responses.js';

/** Where one modern request's messages go: notifications related to it, then its answer. */
export interface ModernSink {
  notify(message: JSONRPCMessage): void;
  answer(message: JSONRPCMessage): void;
}

/** What a `subscriptions/listen` asked for (basic/patterns/subscriptions "Notification filter"). */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

interface Listener {
  filter: ListenFilter;
  sink: ModernSink;
}

/** Which filter field lets a change notification through. */
const LIST_CHANGED: Readonly<Record<string, keyof ListenFilter>> = {
  'notifications/tools/list_changed': 'toolsListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
  'notifications/resources/list_changed': 'resourcesListChanged',
};

interface Pending {
  method: string;
  /** The tool's or prompt's name, the resource's URI: a retry must name the same. */
  name: string | undefined;
  logs: boolean;
  /** What the client declared on this request. */
  capabilities: Record<string, unknown>;
  /** Where its messages go; undefined while it waits for the client's retry (its answer then waits in `settled`). */
  sink: ModernSink | undefined;
  /** The session's questions put to the client and not answered yet, by input key. */
  asked: Map<string, Asked>;
  /** Its wait in `InputWaits`, once the client was first asked. */
  wait: string | undefined;
  /** A round's questions are being gathered (they come in a burst) before the client is asked. */
  gathering: Timer | undefined;
  settled: JSONRPCMessage | undefined;
}

/** A held call, as `InputWaits` holds it: the exchange and the session's id of the client's first request. */
export interface HeldCall extends Waiting {
  exchange: ModernExchange;
  id: RequestId;
}

export interface ModernExchangeOptions {
  waits: InputWaits<HeldCall>;
  /** The exchange has nothing left to answer or hold (a one-request exchange, on HTTP, then closes). */
  onDone?: () => void;
}

/** Ids of the exchange's own requests to the session; a client's id is never taken for one (they are not strings of this form). */
const OWN = '\u0000blitz-modern-';

/** The client capability each request of the session's own needs (a modern client answers them only through MRTR). */
const NEEDS: Readonly<Record<string, string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** How long after a server's question its call waits for more before the client is asked: a burst's questions travel together. */
export const GATHER_MS = 30;

/** The SDK's request-timeout code: what a server hears for a question its client never answered. */
const REQUEST_TIMEOUT = -32001;

/**
 * The hub's legacy session (its SDK server, handlers, approvals, fast path) serving modern
 * requests: the session is initialized on the client's behalf from the first request's
 * `_meta`, each request goes on with the revision's `_meta` keys taken off (progress tokens
 * stay), and each answer comes back as the revision has it (modern-result.ts). What the
 * session would send outside a request has nowhere to go and is dropped; a log message goes
 * only to a request that set a log level. A request of the session's own (a server's
 * elicitation, sampling or roots, an approval's question) during a client's request ends that
 * request with an `input_required` result naming it; the client's retry, carrying the
 * `requestState` it was given, answers it and takes the rest of the call (`resume`).
 */
export class ModernExchange implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** The `Mcp-Param-*` headers a call of a tool carries (its session's `paramHeaders`), to check a retry's as its first request's were. */
  paramHeaders: (tool: string) => readonly ParamHeader[] = () => [];
  readonly #pending = new Map<RequestId, Pending>();
  readonly #listeners = new Map<RequestId, Listener>();
  readonly #own = new Map<RequestId, (message: JSONRPCMessage) => void>();
  #ownCount = 0;
  #opened: Promise<Record<string, unknown>> | undefined;
  #serverInfo: ServerInfo | undefined;
  #level: string | undefined;
  #closed = false;
  readonly #opts: ModernExchangeOptions;

  constructor(opts: ModernExchangeOptions) {
    this.#opts = opts;
  }

  /** Whether a call of this exchange waits for its client's retry. */
  get holding(): boolean {
    for (const pending of this.#pending.values()) if (pending.sink === undefined) return true;
    return false;
  }

  /** Whether the client's request `id` (the session's id) waits for its client's retry. */
  waiting(id: RequestId): boolean {
    const pending = this.#pending.get(id);
    return pending !== undefined && pending.sink === undefined;
  }

  async start(): Promise<void> {}

  /** The session, initialized for the client `meta` describes (once: later calls get the same answer). */
  open(meta: ModernMeta): Promise<Record<string, unknown>> {
    this.#opened ??= (async () => {
      // What the client declares, and sampling whatever it says: a call that needs it and lacks it fails -32021 (#asked).
      // Without elicitation, a server's question is declined and an approval refused, as for a 2025 client that cannot be asked.
      const capabilities = { ...meta.capabilities, sampling: {} };
      const answer = await this.#ask('initialize', {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities,
        clientInfo: meta.clientInfo ?? { name: 'unnamed 2026-07-28 client', version: '' },
      });
      if (!('result' in answer)) throw new Error(`the hub session refused to start: ${JSON.stringify(answer)}`);
      this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return answer.result as Record<string, unknown>;
    })();
    return this.#opened;
  }

  /** `server/discover`'s result. */
  async discover(meta: ModernMeta): Promise<Record<string, unknown>> {
    return discoverResult(await this.open(meta));
  }

  /** Who answers: the session's server info, as initialize gave it. */
  async serverInfo(meta: ModernMeta): Promise<ServerInfo> {
    this.#serverInfo = (await this.open(meta)).serverInfo as ServerInfo;
    return this.#serverInfo;
  }

  /** One modern request, checked already: its notifications and answer go to `sink`. */
  async request(request: JSONRPCRequest, meta: ModernMeta, sink: ModernSink): Promise<void> {
    const serverInfo = await this.serverInfo(meta);
    if (meta.logLevel !== undefined && meta.logLevel !== this.#level) {
      this.#level = meta.logLevel;
      await this.#ask('logging/setLevel', { level: meta.logLevel });
    }
    const logs = meta.logLevel !== undefined;
    this.#pending.set(request.id, {
      method: request.method,
      name: nameOf(request),
      logs,
      capabilities: meta.capabilities,
      sink: this.#sinkFor(request, request.id, sink, serverInfo),
      asked: new Map(),
      wait: undefined,
      gathering: undefined,
      settled: undefined,
    });
    this.onmessage?.({ ...request, params: forSession(request.params) });
  }

  /**
   * A client's retry of the held call `id` (its requestState checked already): the answers it
   * carries go to the session's questions they name, then the call goes on and its next
   * message (another `input_required`, or its result) goes to `sink`. An answer that is not
   * what its question asks for is refused -32602 and the call keeps waiting; a question left
   * unanswered is asked again.
   */
  resume(id: RequestId, retry: JSONRPCRequest, sink: ModernSink): void {
    const pending = this.#pending.get(id);
    if (!pending || pending.sink !== undefined) {
      sink.answer({
        jsonrpc: '2.0',
        id: retry.id,
        error: { code: INVALID_PARAMS, message: 'Invalid params: the call is not waiting for input' },
      });
      return;
    }
    const responses = (retry.params as { inputResponses?: unknown } | undefined)?.inputResponses;
    const checked = checkInputResponses(responses, pending.asked);
    if ('invalid' in checked) {
      sink.answer({ jsonrpc: '2.0', id: retry.id, error: { code: INVALID_PARAMS, message: `Invalid params: ${checked.invalid}` } });
      return;
    }
    pending.sink = this.#sinkFor(retry, retry.id, sink, this.#serverInfo!);
    for (const [key, result] of checked.answers) {
      const asked = pending.asked.get(key)!;
      pending.asked.delete(key);
      this.onmessage?.({ jsonrpc: '2.0', id: asked.id, result } as JSONRPCMessage);
    }
    if (pending.settled) return this.#answer(id, pending, pending.settled);
    if (pending.asked.size > 0) this.#askClient(id);
  }

  /**
   * A `subscriptions/listen`: acknowledged with what the hub honours (every list; resource
   * updates when its servers offer subscriptions, subscribed through the session as a legacy
   * client would), then each change the session would have sent a legacy client, as the
   * filter lets it through, tagged with the subscription's id.
   */
  async listen(request: JSONRPCRequest, meta: ModernMeta, sink: ModernSink): Promise<void> {
    const initialized = await this.open(meta);
    const asked = ((request.params as { notifications?: ListenFilter } | undefined)?.notifications ?? {}) as ListenFilter;
    const filter: ListenFilter = {};
    for (const key of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const)
      if (asked[key] === true) filter[key] = true;
    const subscribes = (initialized.capabilities as { resources?: { subscribe?: boolean } }).resources?.subscribe === true;
    if (subscribes && Array.isArray(asked.resourceSubscriptions)) {
      const uris = asked.resourceSubscriptions.filter((uri): uri is string => typeof uri === 'string');
      const answers = await Promise.all(uris.map((uri) => this.#ask('resources/subscribe', { uri })));
      filter.resourceSubscriptions = uris.filter((_, i) => 'result' in answers[i]!);
    }
    const tag = { [META_SUBSCRIPTION_ID]: request.id };
    sink.notify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: tag, notifications: filter } });
    this.#listeners.set(request.id, {
      filter,
      sink: {
        notify: (m) => {
          const params = (m as { params?: Record<string, unknown> }).params;
          sink.notify({ ...m, params: { ...params, _meta: { ...(params?._meta as object | undefined), ...tag } } } as JSONRPCMessage);
        },
        answer: (m) => sink.answer(m),
      },
    });
  }

  /** The client gave up on a request (its stream closed): the session stops it and answers nothing more of it. */
  cancel(id: RequestId): void {
    if (this.#listeners.delete(id)) return;
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    this.#opts.waits.end(pending.wait);
    this.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'the client closed the request' },
    });
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#closed) return;
    const answered = answerId(message);
    if (answered !== undefined) {
      const own = this.#own.get(answered);
      if (own) {
        this.#own.delete(answered);
        own(message);
        return;
      }
      const pending = this.#pending.get(answered);
      if (!pending) return;
      this.#answer(answered, pending, message);
      return;
    }
    if (!('method' in message)) return;
    if ('id' in message) {
      this.#asked(message as JSONRPCRequest, options?.relatedRequestId);
      return;
    }
    if (message.method === 'notifications/cancelled')
      return this.#withdrawn((message.params as { requestId?: RequestId } | undefined)?.requestId);
    const related = options?.relatedRequestId === undefined ? undefined : this.#pending.get(options.relatedRequestId);
    if (!related) return this.#changed(message as JSONRPCMessage & { method: string });
    if (message.method === 'notifications/message' && !related.logs) return;
    // While the call waits for its client, its progress has no stream to go on.
    related.sink?.notify(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // A subscription the hub ends (it is stopping) ends gracefully: with its answer.
    for (const [id, listener] of this.#listeners)
      listener.sink.answer({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [META_SUBSCRIPTION_ID]: id } } });
    this.#listeners.clear();
    for (const pending of this.#pending.values()) this.#opts.waits.end(pending.wait);
    this.#pending.clear();
    this.onclose?.();
  }

  /**
   * A request of the session's own (an approval, a server's elicitation, sampling or roots)
   * during a client's request. One the client declared no capability for fails that request
   * with -32021, naming the capability, as the revision says. One it did declare joins the
   * request's questions: those of a burst (a server asks them at once) reach the client
   * together, as its request's `input_required` result, `GATHER_MS` after the last.
   * Outside any client's request the session hears a refusal.
   */
  #asked(request: JSONRPCRequest, relatedId: RequestId | undefined): void {
    const id =
      relatedId !== undefined && this.#pending.has(relatedId)
        ? relatedId
        : this.#pending.size === 1
          ? [...this.#pending.keys()][0]
          : undefined;
    const pending = id === undefined ? undefined : this.#pending.get(id);
    const capability = NEEDS[request.method];
    if (pending && capability !== undefined && capability in pending.capabilities) {
      const { key, params } = keyed(request, pending.asked);
      pending.asked.set(key, { id: request.id, method: request.method, params });
      if (pending.sink !== undefined) {
        // The rest of a burst (a server asks its questions at once) arrives first: each question restarts the short wait.
        pending.gathering?.cancel();
        pending.gathering = this.#opts.waits.clock.setTimeout(() => {
          pending.gathering = undefined;
          if (this.#pending.get(id!) === pending && pending.sink !== undefined) this.#askClient(id!);
        }, GATHER_MS);
      }
      return;
    }
    if (pending && capability !== undefined) {
      this.#pending.delete(id!);
      this.#opts.waits.end(pending.wait);
      pending.sink?.answer({
        jsonrpc: '2.0',
        id: id!,
        error: {
          code: MISSING_CAPABILITY,
          message: `Missing required client capability: ${pending.method} needs ${capability}, which the client did not declare`,
          data: { requiredCapabilities: { [capability]: {} } },
        },
      });
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id!, reason: `the client lacks ${capability}` },
      });
    }
    this.onmessage?.({
      jsonrpc: '2.0',
      id: request.id,
      error: { code: -32601, message: `the client speaks MCP 2026-07-28, which has no ${request.method} request from a server` },
    });
  }

  /** The call's open questions, as its `input_required` result: the call waits for the client's retry. */
  #askClient(id: RequestId): void {
    const pending = this.#pending.get(id)!;
    const sink = pending.sink!;
    const held: HeldCall = { exchange: this, id, expire: () => this.#expire(id) };
    const { wait, state } = this.#opts.waits.seal(held, pending.wait, pending.method, pending.name);
    pending.wait = wait;
    pending.sink = undefined;
    const inputRequests = Object.fromEntries(
      [...pending.asked].map(([key, asked]) => [key, { method: asked.method, params: asked.params }]),
    );
    sink.answer({ jsonrpc: '2.0', id, result: { resultType: 'input_required', inputRequests, requestState: state } });
  }

  /** The session's answer to a client's request: to its stream, or kept for its retry while it waits. */
  #answer(id: RequestId, pending: Pending, message: JSONRPCMessage): void {
    if (!pending.sink) {
      pending.settled = message;
      return;
    }
    this.#pending.delete(id);
    this.#opts.waits.end(pending.wait);
    pending.sink.answer(message);
    if (this.#pending.size === 0) this.#opts.onDone?.();
  }

  /** The session withdrew one of its questions (it gave up on it, or its call ended): no longer asked. */
  #withdrawn(requestId: RequestId | undefined): void {
    for (const pending of this.#pending.values())
      for (const [key, asked] of pending.asked) if (asked.id === requestId) pending.asked.delete(key);
  }

  /** The client never came back: its questions are answered with an error, its call stopped, nothing held. */
  #expire(id: RequestId): void {
    const pending = this.#pending.get(id);
    if (!pending || pending.sink !== undefined) return;
    this.#pending.delete(id);
    for (const asked of pending.asked.values())
      this.onmessage?.({
        jsonrpc: '2.0',
        id: asked.id,
        error: { code: REQUEST_TIMEOUT, message: `the client did not answer within ${INPUT_WAIT_MS / 60_000} minutes` },
      });
    this.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'the client did not retry with its answers' },
    });
    if (this.#pending.size === 0) this.#opts.onDone?.();
  }

  /** Where a client's request's messages go: its answer as the revision has it, under the id the client used. */
  #sinkFor(request: JSONRPCRequest, clientId: RequestId, sink: ModernSink, serverInfo: ServerInfo): ModernSink {
    return {
      notify: (m) => sink.notify(m),
      answer: (m) => {
        const answer = modernAnswer(m, request, serverInfo) as JSONRPCMessage & { id?: RequestId };
        sink.answer({ ...answer, id: clientId } as JSONRPCMessage);
      },
    };
  }

  /** A change the session announced outside any request: to each subscription that asked for it. */
  #changed(message: JSONRPCMessage & { method: string }): void {
    const list = LIST_CHANGED[message.method];
    const uri = message.method === 'notifications/resources/updated' ? (message as { params?: { uri?: unknown } }).params?.uri : undefined;
    for (const { filter, sink } of this.#listeners.values()) {
      if (list !== undefined ? filter[list] === true : typeof uri === 'string' && filter.resourceSubscriptions?.includes(uri))
        sink.notify(message);
    }
  }

  #ask(method: string, params: Record<string, unknown>): Promise<JSONRPCMessage> {
    const id = `${OWN}${++this.#ownCount}`;
    return new Promise((resolve) => {
      this.#own.set(id, resolve);
      this.onmessage?.({ jsonrpc: '2.0', id, method, params });
    });
  }
}

/**
 * The key a question is put to the client under, and its params as the client is to see them: a
 * modern server's own key (which ModernServerTransport left in `_meta`), unless the call has a
 * question by that key open already, or the hub's own (`elicitation_1`).
 */
function keyed(request: JSONRPCRequest, open: ReadonlyMap<string, Asked>): { key: string; params: Record<string, unknown> } {
  const params = request.params ?? {};
  const meta = params._meta as Record<string, unknown> | undefined;
  const own = meta?.[META_INPUT_KEY];
  if (typeof own !== 'string') return { key: inputKey(request.method, open), params };
  const { [META_INPUT_KEY]: _key, ...rest } = meta!;
  const { _meta: _dropped, ...bare } = params;
  const shown = Object.keys(rest).length > 0 ? { ...bare, _meta: rest } : bare;
  return { key: open.has(own) ? inputKey(request.method, open) : own, params: shown };
}

/**
 * A client's first request as the legacy session takes it: without the revision's own `_meta`
 * keys, which the session does not know, and with any `inputResponses` under Blitz's own key.
 */
function forSession(params: JSONRPCRequest['params']): JSONRPCRequest['params'] {
  if (!params) return params;
  const { _meta: meta, inputResponses, ...rest } = params as Record<string, unknown> & { _meta?: Record<string, unknown> };
  const kept = Object.fromEntries(Object.entries(meta ?? {}).filter(([key]) => !key.startsWith('io.modelcontextprotocol/')));
  // Answers sent before anything was asked are the server's: they go on to it with the call (the session's schemas would drop a param they do not know).
  if (inputResponses !== undefined) kept[META_INPUT_RESPONSES] = inputResponses;
  return Object.keys(kept).length === 0 ? rest : { ...rest, _meta: kept };
}
