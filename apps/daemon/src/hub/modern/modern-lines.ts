import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { INVALID_PARAMS, isRequest, META_VERSION, TASK_METHODS, type Redactor } from '@blitz/core';
import type { HubSession } from '../hub-session.js';
import { RedactingTransport } from '../redacting-transport.js';
import { markModern } from '../session-era.js';
import type { InputWaits } from './input-waits.js';
import { ModernExchange, type HeldCall, type ModernSink } from './modern-exchange.js';
import { checkModernRequest } from './modern-request.js';
import { taskRequest } from './task-requests.js';
import { retryOf } from './modern-retry.js';

/**
 * Whether a lines connection's first message opens it at 2026-07-28: `server/discover` (the
 * revision's stdio probe), or a request naming its protocol version in `_meta`, other than a
 * legacy `initialize`. Anything else (an `initialize`, a request of neither era) is legacy, as
 * every connection was before.
 */
export function opensModern(message: JSONRPCMessage): boolean {
  if (!isRequest(message)) return false;
  if (message.method === 'server/discover') return true;
  const params = message.params as Record<string, unknown> | undefined;
  const meta = params?._meta;
  if (typeof meta !== 'object' || meta === null || !(META_VERSION in meta)) return false;
  return message.method !== 'initialize' || params?.protocolVersion === undefined;
}

/**
 * A `blitz connect` connection at 2026-07-28, from its first message on: each request
 * checked as on HTTP but without headers (stdio mirrors none), served by the connection's hub
 * session through one exchange (initialized from the first request's `_meta`), answered on
 * the connection; `notifications/cancelled` stops a request, as the revision keeps it on stdio.
 * A call held for its client's input is resumed by a retry on the same connection.
 */
export function serveModernLines(
  lines: Transport,
  hub: HubSession,
  first: JSONRPCMessage,
  redactor: Redactor,
  waits: InputWaits<HeldCall>,
): Promise<void> {
  const exchange = new ModernExchange({ waits });
  hub.waiting = (id) => exchange.waiting(id);
  markModern(hub.server);
  // Its handlers are set before connect's first await: the requests below reach the session.
  const connected = hub.server.connect(hub.transport(new RedactingTransport(exchange, redactor)));
  const send = (message: JSONRPCMessage) => void lines.send(message).catch(() => undefined);
  const sink: ModernSink = { notify: send, answer: send };
  const receive = (message: JSONRPCMessage) => {
    if (isRequest(message)) {
      const checked = checkModernRequest(message);
      if ('refused' in checked) return send({ jsonrpc: '2.0', id: message.id, error: checked.refused.error });
      if (message.method === 'server/discover')
        return void exchange.discover(checked.meta).then((result) => send({ jsonrpc: '2.0', id: message.id, result }));
      if (message.method === 'subscriptions/listen') return void exchange.listen(message, checked.meta, sink);
      if (TASK_METHODS.has(message.method))
        return void taskRequest(hub.taskScope(), message, checked.meta.capabilities, hub.serverInfo()).then(send);
      const retry = retryOf(message, waits);
      if (retry.kind === 'refused') return send({ jsonrpc: '2.0', id: message.id, error: retry.error });
      if (retry.kind === 'fresh') return void exchange.request(message, checked.meta, sink);
      if (retry.held.exchange !== exchange)
        return send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: INVALID_PARAMS, message: 'Invalid params: requestState belongs to another connection' },
        });
      return exchange.resume(retry.held.id, message, sink);
    }
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) exchange.cancel(id);
    }
  };
  lines.onmessage = receive;
  const closed = lines.onclose;
  lines.onclose = () => {
    void exchange.close();
    closed?.();
  };
  receive(first);
  return connected;
}

/**
 * A transport started already (the connection's first message was read to pick its era),
 * handed to the SDK server as it is: `start` does nothing, everything else is the inner one's.
 */
export class StartedTransport implements Transport {
  readonly #inner: Transport;

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }
  get onclose(): (() => void) | undefined {
    return this.#inner.onclose;
  }
  set onclose(fn: (() => void) | undefined) {
    this.#inner.onclose = fn;
  }
  get onerror(): ((error: Error) => void) | undefined {
    return this.#inner.onerror;
  }
  set onerror(fn: ((error: Error) => void) | undefined) {
    this.#inner.onerror = fn;
  }
  get onmessage(): Transport['onmessage'] {
    return this.#inner.onmessage;
  }
  set onmessage(fn: Transport['onmessage']) {
    this.#inner.onmessage = fn;
  }

  async start(): Promise<void> {}

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
