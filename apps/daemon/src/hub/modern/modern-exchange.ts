import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage, type JSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { answerId } from '@blitz/core';
import { discoverResult, modernAnswer, type ServerInfo } from './modern-result.js';
import { META_SUBSCRIPTION_ID, type ModernMeta } from './modern-request.js';

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
  logs: boolean;
  /** What the client declared on this request. */
  capabilities: Record<string, unknown>;
  sink: ModernSink;
}

/** Ids of the exchange's own requests to the session; a client's id is never taken for one (they are not strings of this form). */
const OWN = '\u0000blitz-modern-';

/** The client capability each request of the session's own needs (a modern client answers them only through MRTR). */
const NEEDS: Readonly<Record<string, string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The revision's MissingRequiredClientCapability error. */
const MISSING_CAPABILITY = -32021;

/**
 * The hub's legacy session (its SDK server, handlers, approvals, fast path) serving modern
 * requests: the session is initialized on the client's behalf from the first request's
 * `_meta`, each request goes on with the revision's `_meta` keys taken off (progress tokens
 * stay), and each answer comes back as the revision has it (modern-result.ts). What the
 * session would send outside a request has nowhere to go and is dropped; a log message goes
 * only to a request that set a log level; a request of the session's own (elicitation,
 * sampling, roots) is refused, since a modern client is never sent one.
 */
export class ModernExchange implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #pending = new Map<RequestId, Pending>();
  readonly #listeners = new Map<RequestId, Listener>();
  readonly #own = new Map<RequestId, (message: JSONRPCMessage) => void>();
  #ownCount = 0;
  #opened: Promise<Record<string, unknown>> | undefined;
  #level: string | undefined;
  #closed = false;

  async start(): Promise<void> {}

  /** The session, initialized for the client `meta` describes (once: later calls get the same answer). */
  open(meta: ModernMeta): Promise<Record<string, unknown>> {
    this.#opened ??= (async () => {
      // Declared whatever the client says: each request's own capabilities are judged when the session asks (send).
      const capabilities = { ...meta.capabilities, elicitation: {}, sampling: {} };
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
    return (await this.open(meta)).serverInfo as ServerInfo;
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
      logs,
      capabilities: meta.capabilities,
      sink: { notify: (m) => sink.notify(m), answer: (m) => sink.answer(modernAnswer(m, request, serverInfo)) },
    });
    this.onmessage?.({ ...request, params: withoutModernMeta(request.params) });
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
    if (!this.#pending.delete(id)) return;
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
      this.#pending.delete(answered);
      pending.sink.answer(message);
      return;
    }
    if (!('method' in message)) return;
    if ('id' in message) {
      this.#asked(message as JSONRPCRequest, options?.relatedRequestId);
      return;
    }
    const related = options?.relatedRequestId === undefined ? undefined : this.#pending.get(options.relatedRequestId);
    if (!related) return this.#changed(message as JSONRPCMessage & { method: string });
    if (message.method === 'notifications/message' && !related.logs) return;
    related.sink.notify(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // A subscription the hub ends (it is stopping) ends gracefully: with its answer.
    for (const [id, listener] of this.#listeners)
      listener.sink.answer({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [META_SUBSCRIPTION_ID]: id } } });
    this.#listeners.clear();
    this.#pending.clear();
    this.onclose?.();
  }

  /**
   * A request of the session's own (an approval, a server's elicitation or sampling) during a
   * client's request. One the client declared no capability for fails that request with
   * -32021, naming the capability, as the revision says; one it did declare would be an
   * `input_required` result, which the hub does not bridge yet: the session hears a refusal.
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
    if (pending && capability !== undefined && !(capability in pending.capabilities)) {
      this.#pending.delete(id!);
      pending.sink.answer({
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

/** A request's params without the revision's own `_meta` keys, which the legacy session does not know. */
function withoutModernMeta(params: JSONRPCRequest['params']): JSONRPCRequest['params'] {
  const meta = params?._meta as Record<string, unknown> | undefined;
  if (!meta) return params;
  const kept = Object.fromEntries(Object.entries(meta).filter(([key]) => !key.startsWith('io.modelcontextprotocol/')));
  const { _meta: _dropped, ...rest } = params!;
  return Object.keys(kept).length === 0 ? rest : { ...rest, _meta: kept };
}
