import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage, type JSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { answerId } from '@blitz/core';
import { discoverResult, modernAnswer, type ServerInfo } from './modern-result.js';
import type { ModernMeta } from './modern-request.js';

/** Where one modern request's messages go: notifications related to it, then its answer. */
export interface ModernSink {
  notify(message: JSONRPCMessage): void;
  answer(message: JSONRPCMessage): void;
}

interface Pending {
  method: string;
  logs: boolean;
  sink: ModernSink;
}

/** Ids of the exchange's own requests to the session; a client's id is never taken for one (they are not strings of this form). */
const OWN = '\u0000blitz-modern-';

/** Capabilities a modern client has only through MRTR, which the hub does not bridge yet: the session must not ask for them. */
const ASKED_BY_REQUEST = ['elicitation', 'sampling', 'roots'];

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
  readonly #own = new Map<RequestId, (message: JSONRPCMessage) => void>();
  #ownCount = 0;
  #opened: Promise<Record<string, unknown>> | undefined;
  #level: string | undefined;
  #closed = false;

  async start(): Promise<void> {}

  /** The session, initialized for the client `meta` describes (once: later calls get the same answer). */
  open(meta: ModernMeta): Promise<Record<string, unknown>> {
    this.#opened ??= (async () => {
      const capabilities = { ...meta.capabilities };
      for (const name of ASKED_BY_REQUEST) delete capabilities[name];
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
      sink: { notify: (m) => sink.notify(m), answer: (m) => sink.answer(modernAnswer(m, request.method, serverInfo)) },
    });
    this.onmessage?.({ ...request, params: withoutModernMeta(request.params) });
  }

  /** The client gave up on a request (its stream closed): the session stops it and answers nothing more of it. */
  cancel(id: RequestId): void {
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
      // A request of the session's own (an approval, a server's elicitation): no modern client can be asked one.
      this.onmessage?.({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32601, message: `the client speaks MCP 2026-07-28, which has no ${message.method} request from a server` },
      });
      return;
    }
    const related = options?.relatedRequestId === undefined ? undefined : this.#pending.get(options.relatedRequestId);
    if (!related) return;
    if (message.method === 'notifications/message' && !related.logs) return;
    related.sink.notify(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#pending.clear();
    this.onclose?.();
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
