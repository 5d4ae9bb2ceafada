import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Clock, Timer } from '@blitz/clock';
import { answerId } from '../jsonrpc/jsonrpc-shape.js';
import type { ToolParamHeaders } from './param-headers.js';
import {
  META_CALLER_CAPABILITIES,
  META_CAPABILITIES,
  META_CLIENT_INFO,
  META_INPUT_KEY,
  META_LOG_LEVEL,
  META_SERVER_INFO,
  META_SUBSCRIPTION_ID,
  META_VERSION,
  MODERN_VERSION,
  MULTI_ROUND,
  declaresTasks,
  TASK_METHODS,
  TASKS_EXTENSION,
} from './modern-protocol.js';

/** The revision a server speaks, as the opening exchange settled it. */
export type Era = 'modern' | 'legacy';

/**
 * How the opening settled the era: the server answered `server/discover` with 2026-07-28; or it
 * refused it, ended the connection instead, answered only the `initialize` sent after it went
 * unanswered (`silent`), or answered it only after that (`slow`: a server still starting, which
 * may yet speak 2026-07-28 at its next start).
 */
export type EraVerdict = { era: 'modern' } | { era: 'legacy'; how: 'refused' | 'closed' | 'silent' | 'slow' };

/** More rounds of questions than this for one request, and the request fails: a server that never stops asking. */
export const MAX_ROUNDS = 16;

/** How many times in a row a listen the server ends is opened again, with no notice heard on it in between. */
export const MAX_LISTEN_REOPENS = 3;

/**
 * A listen that stayed open this long before it ended was no refusal: the count above starts
 * again (with a clock). A proxy or fetch that ends a stream quiet for minutes (Node's ends one
 * after 300 s) then costs a reopen, never the link's changes.
 */
export const LISTEN_LIVED_MS = 30_000;

/** Ids of the transport's own messages to the server and to the client; no SDK or direct-call id has this form. */
const OWN = '\u0000blitz-era-';

const DISCOVER = `${OWN}discover`;

/** What the opening exchange came to: the discovery's answer, none in time, or the connection's end. */
type Opening = { discovered: JSONRPCMessage } | 'silent' | 'closed';

export interface ModernServerTransportOptions {
  /**
   * Send the client's `initialize` if the discovery is not answered within this many ms (stdio,
   * where a server may ignore what comes before its handshake); without it, only once refused.
   */
  answerWithinMs?: number;
  clock?: Clock;
  /** Hears the era once the opening settles it. */
  onVerdict?(verdict: EraVerdict): void;
  /** Learns each listing's parameter headers, for the fetch layer to send (HTTP). */
  paramHeaders?: ToolParamHeaders;
}

/** Result fields of the revision that a 2025 client does not know. */
const MODERN_RESULT_FIELDS = ['resultType', 'ttlMs', 'cacheScope'] as const;

interface Pending {
  request: JSONRPCRequest;
  options: TransportSendOptions | undefined;
  rounds: number;
  /** This round's questions not answered yet, by key, and the answers so far. */
  open: Set<string>;
  answers: Record<string, unknown>;
  requestState: unknown;
}

/**
 * MCP 2026-07-28 spoken to a server under the SDK's 2025 client (SDK v1), which Blitz's
 * connection is built on. The client's `initialize` becomes a `server/discover`: a server that
 * answers it with 2026-07-28 among its versions is spoken to in that revision from then on, and
 * the client is given an `initialize` result made from the discovery; one that refuses it is sent
 * the client's `initialize` as it was (`legacy`), and this transport steps aside. Speaking
 * modern, it puts the revision's `_meta` (version, client info and capabilities, log level) on
 * each request; answers `ping` with a discovery, `logging/setLevel` and `resources/subscribe`
 * itself (the level rides on each request, subscriptions on one `subscriptions/listen`, opened
 * for the list changes the server offers); and turns an `input_required` result into the
 * server's questions put to the client as requests of its own (each with its key in
 * `_meta["blitz/inputKey"]`), then retries the request with the answers. The client sees a 2025
 * server: results without the revision's own fields, notifications as ever.
 */
export class ModernServerTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  readonly #inner: Transport;
  readonly #onVerdict: (verdict: EraVerdict) => void;
  #verdict: EraVerdict | undefined;
  readonly #opts: ModernServerTransportOptions;
  /** While the opening waits for the discovery's answer: how it is told. */
  #opening: ((answer: Opening) => void) | undefined;
  /** The `initialize` sent after a discovery went unanswered, until it is answered. */
  #silentInitialize: RequestId | undefined;
  #meta: Record<string, unknown> = {};
  #logLevel: string | undefined;
  readonly #pending = new Map<RequestId, Pending>();
  /** The server's questions put to the client: the request they belong to and their key. */
  readonly #questions = new Map<RequestId, { request: RequestId; key: string }>();
  /** Answers to the transport's own requests to the server. */
  readonly #own = new Map<RequestId, (message: JSONRPCMessage) => void>();
  readonly #subscribed = new Set<string>();
  /** The `tools/list` requests in flight, whose tools' parameter headers are learnt (`paramHeaders`). */
  readonly #toolListings = new Set<RequestId>();
  /** The `tasks/*` requests in flight: their answers are tasks, whose `ttlMs` is the task's, not a cache hint. */
  readonly #taskRequests = new Set<RequestId>();
  #listenFilter: Record<string, unknown> = {};
  #listening: RequestId | undefined;
  /** Listens the server ended and this transport opened again since the last notice one carried. */
  #reopened = 0;
  /** When the listen open now was opened (with a clock). */
  #listenOpenedAt: number | undefined;
  #count = 0;
  #closed = false;

  constructor(inner: Transport, opts: ModernServerTransportOptions = {}) {
    this.#inner = inner;
    this.#opts = opts;
    this.#onVerdict = opts.onVerdict ?? (() => undefined);
  }

  /** The era, once the opening settled it. */
  get verdict(): EraVerdict | undefined {
    return this.#verdict;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  async start(): Promise<void> {
    this.#inner.onmessage = (message, extra) => this.#received(message, extra);
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => {
      this.#closed = true;
      this.#opening?.('closed');
      this.onclose?.();
    };
    await this.#inner.start();
  }

  setProtocolVersion(version: string): void {
    // Modern requests carry their version themselves; the client's 2025 one is for a legacy server.
    if (this.#verdict?.era !== 'modern') this.#inner.setProtocolVersion?.(version);
  }

  /** The request the server's question `serverRequestId` came up in: the hub puts it to that request's client. */
  relatedTo(serverRequestId: RequestId): RequestId | undefined {
    const question = this.#questions.get(serverRequestId);
    const pending = question && this.#pending.get(question.request);
    return pending?.options?.relatedRequestId;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#verdict?.era === 'legacy') return this.#inner.send(message, options);
    if (!('method' in message)) return this.#answered(message, options);
    if (!('id' in message)) {
      // The revision has no handshake to finish.
      if (message.method === 'notifications/initialized' && this.#verdict) return;
      if (message.method === 'notifications/cancelled')
        this.#withdraw((message.params as { requestId?: RequestId } | undefined)?.requestId);
      return this.#inner.send(message, options);
    }
    const request = message as JSONRPCRequest;
    if (!this.#verdict && request.method === 'initialize') return this.#open(request, options);
    switch (request.method) {
      case 'ping':
        return this.#ping(request);
      case 'logging/setLevel':
        this.#logLevel = String((request.params as { level?: unknown } | undefined)?.level ?? '');
        return this.#reply(request.id, {});
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const uri = (request.params as { uri?: unknown } | undefined)?.uri;
        if (typeof uri === 'string') {
          if (request.method === 'resources/subscribe') this.#subscribed.add(uri);
          else this.#subscribed.delete(uri);
        }
        await this.#listen();
        return this.#reply(request.id, {});
      }
    }
    const sent = { ...request, params: this.#withMeta(request.params) };
    if (MULTI_ROUND.has(request.method))
      this.#pending.set(request.id, { request: sent, options, rounds: 0, open: new Set(), answers: {}, requestState: undefined });
    else if (request.method === 'tools/list' && this.#opts.paramHeaders) this.#toolListings.add(request.id);
    else if (TASK_METHODS.has(request.method)) this.#taskRequests.add(request.id);
    return this.#inner.send(sent, options);
  }

  /**
   * The client's `initialize`, after a `server/discover`: sent once the discovery is refused, or
   * (with `answerWithinMs`) once it went that long unanswered, in case the server ignores what it
   * does not know before its handshake. Resolves once the era is known and, for a legacy server,
   * once its `initialize` is sent, so that a failure to send it (a 401 on HTTP) reaches the client
   * as its own.
   */
  async #open(initialize: JSONRPCRequest, options: TransportSendOptions | undefined): Promise<void> {
    const params = initialize.params as { clientInfo?: unknown; capabilities?: unknown } | undefined;
    this.#meta = {
      [META_VERSION]: MODERN_VERSION,
      [META_CLIENT_INFO]: params?.clientInfo,
      [META_CAPABILITIES]: params?.capabilities ?? {},
    };
    let answer: Opening | 'refused';
    let timer: Timer | undefined;
    try {
      const answered = new Promise<Opening>((resolve) => (this.#opening = resolve));
      await this.#inner.send({ jsonrpc: '2.0', id: DISCOVER, method: 'server/discover', params: { _meta: this.#meta } });
      const { clock, answerWithinMs } = this.#opts;
      if (clock && answerWithinMs !== undefined) timer = clock.setTimeout(() => this.#opening?.('silent'), answerWithinMs);
      answer = await answered;
    } catch (err) {
      // Over HTTP a legacy server answers a POST outside a session with an error status; a
      // sign-in asked for, a server down or overloaded is no verdict, and fails the start as ever.
      if (!refusedOverHttp(err)) throw err;
      answer = 'refused';
    } finally {
      timer?.cancel();
      this.#opening = undefined;
    }
    if (typeof answer === 'object' && isModern(answer.discovered)) {
      this.#settle({ era: 'modern' });
      const discovered = (answer.discovered as { result: Record<string, unknown> }).result;
      const meta = discovered._meta as Record<string, unknown> | undefined;
      const result = {
        protocolVersion: (initialize.params as { protocolVersion?: unknown } | undefined)?.protocolVersion,
        capabilities: discovered.capabilities ?? {},
        serverInfo: meta?.[META_SERVER_INFO] ?? { name: 'unknown', version: '' },
        ...(typeof discovered.instructions === 'string' ? { instructions: discovered.instructions } : {}),
      };
      this.#listenFilter = listChangesOffered(discovered.capabilities);
      await this.#listen().catch((err: Error) => this.onerror?.(err));
      this.onmessage?.({ jsonrpc: '2.0', id: initialize.id, result } as JSONRPCMessage);
      return;
    }
    if (answer === 'closed' || endedConnection(answer)) return this.#settle({ era: 'legacy', how: 'closed' });
    if (answer === 'silent') {
      // Told once `initialize` is answered: whether the discovery was answered by then says which silence it was.
      this.#verdict = { era: 'legacy', how: 'silent' };
      this.#silentInitialize = initialize.id;
    } else this.#settle({ era: 'legacy', how: 'refused' });
    await this.#inner.send(initialize, options);
  }

  #settle(verdict: EraVerdict): void {
    this.#verdict = verdict;
    this.#onVerdict(verdict);
  }

  #received(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const id = answerId(message);
    if (id !== undefined && this.#opened(id, message)) return;
    if (this.#verdict?.era !== 'modern') return this.onmessage?.(message, extra);
    if (id !== undefined) {
      const own = this.#own.get(id);
      if (own) {
        this.#own.delete(id);
        return own(message);
      }
      const pending = this.#pending.get(id);
      if (pending && 'result' in message && (message.result as { resultType?: unknown }).resultType === 'input_required')
        return this.#ask(id, pending, message.result as Record<string, unknown>);
      this.#pending.delete(id);
      const listing = this.#toolListings.delete(id);
      const ofTask = this.#taskRequests.delete(id);
      if (!('result' in message)) return this.onmessage?.(message, extra);
      // A task (the tasks extension), made or followed, is no 2025 result: it goes on whole, for the hub to hand its client.
      if (ofTask || (message.result as { resultType?: unknown }).resultType === 'task') return this.onmessage?.(message, extra);
      const result = legacyResult(message.result);
      return this.onmessage?.({ ...message, result: listing ? this.#withValidTools(result) : result }, extra);
    }
    if ('method' in message && !('id' in message)) {
      if (message.method === 'notifications/subscriptions/acknowledged') return;
      const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
      const subscription = meta?.[META_SUBSCRIPTION_ID];
      if (subscription !== undefined) {
        // A listen this transport replaced may still say something before it ends.
        if (subscription !== this.#listening) return;
        this.#reopened = 0;
        const { [META_SUBSCRIPTION_ID]: _tag, ...rest } = meta!;
        const { _meta: _dropped, ...params } = message.params!;
        return this.onmessage?.({ ...message, params: Object.keys(rest).length ? { ...params, _meta: rest } : params }, extra);
      }
    }
    this.onmessage?.(message, extra);
  }

  /**
   * An answer of the opening exchange taken off the wire (the discovery's), or the one that ends
   * a silent opening (the `initialize` sent after it): the verdict is told then, and it says
   * whether the discovery had been answered late, by a server slow to start.
   */
  #opened(id: RequestId, message: JSONRPCMessage): boolean {
    if (id === DISCOVER) {
      if (this.#opening) this.#opening({ discovered: message });
      else if (this.#silentInitialize !== undefined) this.#verdict = { era: 'legacy', how: 'slow' };
      return true;
    }
    if (id === this.#silentInitialize) {
      this.#silentInitialize = undefined;
      this.#settle(this.#verdict!);
    }
    return false;
  }

  /** An `input_required` result: its questions go to the client, each as a request of the transport's own. */
  #ask(id: RequestId, pending: Pending, result: Record<string, unknown>): void {
    const questions = result.inputRequests;
    const keys = isRecord(questions) ? Object.keys(questions) : [];
    if (keys.length === 0 || pending.rounds >= MAX_ROUNDS) {
      const message =
        keys.length === 0
          ? `the server answered ${pending.request.method} input_required without questions`
          : `the server asked more than ${MAX_ROUNDS} rounds of questions for one ${pending.request.method}`;
      return this.#fail(id, { code: -32603, message });
    }
    pending.rounds += 1;
    pending.open = new Set(keys);
    pending.answers = {};
    pending.requestState = result.requestState;
    for (const key of keys) {
      const question = (questions as Record<string, unknown>)[key];
      const own = `${OWN}${++this.#count}`;
      this.#questions.set(own, { request: id, key });
      const { method, params } = isRecord(question) ? question : {};
      const asked = isRecord(params) ? params : {};
      this.onmessage?.({
        jsonrpc: '2.0',
        id: own,
        method: typeof method === 'string' ? method : '',
        params: { ...asked, _meta: { ...(isRecord(asked._meta) ? asked._meta : {}), [META_INPUT_KEY]: key } },
      });
    }
  }

  /** The client answered a request: one of the server's questions (the request retries once all are), or a request of the server's own. */
  async #answered(message: JSONRPCMessage, options: TransportSendOptions | undefined): Promise<void> {
    const id = answerId(message);
    const question = id === undefined ? undefined : this.#questions.get(id);
    // A withdrawn question's late answer is no one's; any other answer is to a request of the server's own.
    if (!question) return typeof id === 'string' && id.startsWith(OWN) ? undefined : this.#inner.send(message, options);
    this.#questions.delete(id!);
    const pending = this.#pending.get(question.request);
    if (!pending || !pending.open.has(question.key)) return;
    if ('error' in message) return this.#fail(question.request, message.error);
    pending.answers[question.key] = (message as { result: unknown }).result;
    pending.open.delete(question.key);
    if (pending.open.size > 0) return;
    const { requestState } = pending;
    const params = {
      ...pending.request.params,
      inputResponses: pending.answers,
      ...(requestState === undefined ? {} : { requestState }),
    };
    await this.#inner.send({ ...pending.request, params }, pending.options);
  }

  /** The request ends with this error: its questions still open are withdrawn from the client. */
  #fail(id: RequestId, error: { code: number; message: string; data?: unknown }): void {
    this.#withdraw(id);
    this.onmessage?.({ jsonrpc: '2.0', id, error });
  }

  /** The request is over (cancelled by the client, or failed): its open questions are withdrawn. */
  #withdraw(id: RequestId | undefined): void {
    if (id === undefined || !this.#pending.delete(id)) return;
    for (const [own, question] of this.#questions) {
      if (question.request !== id) continue;
      this.#questions.delete(own);
      this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: own, reason: 'the request ended' } });
    }
  }

  /** `ping` is gone from the revision: a discovery stands in for it. */
  async #ping(ping: JSONRPCRequest): Promise<void> {
    const answer = await this.#request('server/discover', {});
    if (answer && 'error' in answer) return this.onmessage?.({ jsonrpc: '2.0', id: ping.id, error: answer.error });
    this.#reply(ping.id, {});
  }

  /**
   * One `subscriptions/listen` for the list changes the server offers and the resources the
   * client subscribed to: a new one replaces the last once the server holds it.
   */
  async #listen(): Promise<void> {
    const notifications = { ...this.#listenFilter, ...(this.#subscribed.size ? { resourceSubscriptions: [...this.#subscribed] } : {}) };
    const before = this.#listening;
    if (Object.keys(notifications).length === 0) {
      this.#listening = undefined;
    } else {
      const id = `${OWN}${++this.#count}`;
      this.#listening = id;
      this.#listenOpenedAt = this.#opts.clock?.now();
      // Its answer comes when the listen ends.
      this.#own.set(id, (answer) => this.#listenEnded(id, answer));
      await this.#inner.send({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta: this.#meta, notifications } });
    }
    if (before !== undefined && !this.#closed) {
      this.#own.delete(before);
      await this.#inner.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: before, reason: 'replaced' } });
    }
  }

  /**
   * The server ended the listen `id` (its answer came): while it is still this transport's, it is
   * opened again, so that list changes and resource updates keep coming — up to
   * `MAX_LISTEN_REOPENS` times without a notice heard in between (or one lasting `LISTEN_LIVED_MS`).
   * One the server refused, or kept ending, is reported, and the link goes on without one.
   */
  #listenEnded(id: RequestId, answer: JSONRPCMessage): void {
    if (this.#closed || this.#listening !== id) return;
    this.#listening = undefined;
    if ('error' in answer) {
      if (answer.error.code !== ErrorCode.ConnectionClosed)
        this.onerror?.(new Error(`the server refused its subscriptions/listen: ${answer.error.message}; its changes are not heard`));
      return;
    }
    const opened = this.#listenOpenedAt;
    if (opened !== undefined && this.#opts.clock!.now() - opened >= LISTEN_LIVED_MS) this.#reopened = 0;
    if (++this.#reopened > MAX_LISTEN_REOPENS) {
      this.onerror?.(
        new Error(`the server ended its subscriptions/listen ${MAX_LISTEN_REOPENS} times in a row; its changes are not heard`),
      );
      return;
    }
    this.#listen().catch((err: Error) => this.onerror?.(err));
  }

  /**
   * The HTTP stream request `id` was answered on ended. For this transport's listen, the listen
   * ended with it, its answer come or not (a dropped connection brings none): its answer, when it
   * does come, finds another listen open and is dropped.
   */
  streamEnded(id: RequestId): void {
    if (this.#listening !== id || !this.#own.has(id)) return;
    // An answer still on its way (the SDK reads the stream's last events after its end is seen
    // here) is taken and dropped, never passed to the client as one it did not ask for.
    this.#own.set(id, () => undefined);
    this.#listenEnded(id, { jsonrpc: '2.0', id, result: {} });
  }

  /** A request of the transport's own; its answer, or undefined if the connection closed first. */
  async #request(method: string, params: Record<string, unknown>): Promise<JSONRPCMessage | undefined> {
    const id = `${OWN}${++this.#count}`;
    const answered = new Promise<JSONRPCMessage>((resolve) => this.#own.set(id, resolve));
    await this.#inner.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: this.#meta } });
    return answered;
  }

  #reply(id: RequestId, result: Record<string, unknown>): void {
    queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id, result }));
  }

  /**
   * A `tools/list` result with the tools' parameter headers learnt (`paramHeaders`), less the
   * tools whose header annotations are invalid: the revision forbids calling them. Each is reported.
   */
  #withValidTools(result: Record<string, unknown>): Record<string, unknown> {
    if (!Array.isArray(result.tools)) return result;
    const invalid = this.#opts.paramHeaders!.learn(result.tools);
    if (invalid.length === 0) return result;
    for (const tool of invalid) this.onerror?.(new Error(`the server's tool ${tool.name} is left out: ${tool.invalid}`));
    const left = new Set(invalid.map((t) => t.name));
    return { ...result, tools: result.tools.filter((t: { name?: unknown }) => !left.has(t.name as string)) };
  }

  /**
   * A request's params with the revision's `_meta`. The capabilities are the link's, less what
   * the calling client cannot do (`_meta["blitz/callerCapabilities"]`, taken off): a server then
   * knows not to ask a client that cannot be asked, rather than ask and hear it declined.
   */
  #withMeta(params: JSONRPCRequest['params']): Record<string, unknown> {
    const { [META_CALLER_CAPABILITIES]: caller, ...own } = isRecord(params?._meta) ? params._meta : {};
    const meta: Record<string, unknown> = { ...own, ...this.#meta };
    if (isRecord(caller) && isRecord(meta[META_CAPABILITIES])) {
      const capabilities = { ...meta[META_CAPABILITIES] };
      for (const asked of ['elicitation', 'sampling']) if (!(asked in caller)) delete capabilities[asked];
      // A task is the calling client's to follow: the server may make one only for a client that declares them.
      if (declaresTasks(caller))
        capabilities.extensions = { ...(isRecord(capabilities.extensions) ? capabilities.extensions : {}), [TASKS_EXTENSION]: {} };
      meta[META_CAPABILITIES] = capabilities;
    }
    if (this.#logLevel !== undefined) meta[META_LOG_LEVEL] = this.#logLevel;
    return { ...params, _meta: meta };
  }
}

/** An HTTP status a server without the revision answers a request outside a session with: any 4xx but a sign-in's or a rate limit's. */
function refusedOverHttp(err: unknown): boolean {
  const status = (err as { code?: unknown } | undefined)?.code;
  return typeof status === 'number' && status >= 400 && status < 500 && ![401, 403, 429].includes(status);
}

/**
 * Whether the discovery's answer is the one Blitz's stdio transport gives what is in flight when
 * the process ends (ConnectionClosed, with its exit or closed stdout): the server died of the question.
 */
function endedConnection(answer: Opening | 'refused'): boolean {
  if (typeof answer !== 'object' || !('error' in answer.discovered)) return false;
  const { code, data } = answer.discovered.error;
  return code === ErrorCode.ConnectionClosed && isRecord(data) && ('exitCode' in data || data.reason === 'STDOUT_CLOSED');
}

/** Whether `server/discover`'s answer names the revision this transport speaks. */
function isModern(answer: JSONRPCMessage): boolean {
  if (!('result' in answer)) return false;
  const versions = (answer.result as { supportedVersions?: unknown }).supportedVersions;
  return Array.isArray(versions) && versions.includes(MODERN_VERSION);
}

/** The list changes a server's capabilities offer, as a listen's filter. */
function listChangesOffered(capabilities: unknown): Record<string, boolean> {
  const caps = isRecord(capabilities) ? capabilities : {};
  const filter: Record<string, boolean> = {};
  for (const [capability, key] of [
    ['tools', 'toolsListChanged'],
    ['prompts', 'promptsListChanged'],
    ['resources', 'resourcesListChanged'],
  ] as const) {
    const offered = caps[capability];
    if (isRecord(offered) && offered.listChanged === true) filter[key] = true;
  }
  return filter;
}

/** A modern result as a 2025 client reads it: without the revision's own fields and the server's identity on each answer. */
function legacyResult(result: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = { ...result };
  for (const field of MODERN_RESULT_FIELDS) delete kept[field];
  if (isRecord(kept._meta) && META_SERVER_INFO in kept._meta) {
    const { [META_SERVER_INFO]: _info, ...meta } = kept._meta;
    if (Object.keys(meta).length) kept._meta = meta;
    else delete kept._meta;
  }
  return kept;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
