import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import {
  BlitzError,
  CallCancellation,
  handlerErrorAnswer,
  isPlainToolCall,
  isRequest,
  resultAnswer,
  type PlainToolCall,
} from '@blitz/core';
import { rpcErrorAnswer } from '../wire/error-answer.js';
import { paramsRefusal } from './request-params.js';
import type { ToolCallHandler } from './tools-handlers.js';

/**
 * A session's transport as the SDK server sees it, with `tools/call` taken past the server's
 * generic dispatch — its zod checks of every message and of the result, and its per-request
 * bookkeeping — to the very handler the server would run (`toolCallHandler`: resolve,
 * approve, call). Progress goes out through the server, related to the call; a
 * `notifications/cancelled` for it aborts it and no answer is sent, as the SDK does; when the
 * connection closes every call in flight is aborted. A call this does not take whole (a
 * task-augmented one, or params of another shape) goes to the SDK server, which answers it as
 * ever, errors included. A call that comes while `initialize` is still unanswered (a client
 * that writes its handshake and its first call at once) waits for that answer: the SDK answers
 * initialize a few microtasks on, and a call's own messages (search_tools' list_changed) must
 * not reach the client before it. Two refusals are made here too, for every request: one
 * before `initialize` (other than `ping`) is refused, as the protocol says, and one whose
 * params its method's schema refuses is answered -32602 in one line (request-params.ts).
 */
export class ToolCallFastPath implements Transport {
  readonly #inner: Transport;
  readonly #server: Server;
  /** Undefined: every `tools/call` goes to the SDK server (the fast lane is off); the refusals stay. */
  readonly #handler: ToolCallHandler | undefined;
  readonly #inFlight = new Map<RequestId, CallCancellation>();
  /** The id of the `initialize` the SDK server has not answered yet, and the calls held until it has. */
  #initializing: { id: RequestId; held: PlainToolCall[] } | undefined;
  /** `initialize` was sent (and is answered, or being answered): requests may come. */
  #initialized = false;
  #onmessage: Transport['onmessage'];

  constructor(inner: Transport, server: Server, handler: ToolCallHandler | undefined) {
    this.#inner = inner;
    this.#server = server;
    this.#handler = handler;
    inner.onmessage = (message, extra) => this.#receive(message, extra);
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  get onclose(): (() => void) | undefined {
    return this.#inner.onclose;
  }
  set onclose(fn: (() => void) | undefined) {
    this.#inner.onclose =
      fn &&
      (() => {
        for (const cancellation of this.#inFlight.values()) cancellation.abort();
        this.#inFlight.clear();
        this.#initializing = undefined;
        fn();
      });
  }

  get onerror(): ((error: Error) => void) | undefined {
    return this.#inner.onerror;
  }
  set onerror(fn: ((error: Error) => void) | undefined) {
    this.#inner.onerror = fn;
  }

  get onmessage(): Transport['onmessage'] {
    return this.#onmessage;
  }
  set onmessage(fn: Transport['onmessage']) {
    this.#onmessage = fn;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const sent = this.#inner.send(message, options);
    const initializing = this.#initializing;
    if (initializing && 'id' in message && message.id === initializing.id && !('method' in message)) {
      this.#initializing = undefined;
      // Written after the answer: the transport keeps the order of what it is given.
      for (const request of initializing.held) void this.#call(request);
    }
    return sent;
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const refusal = isRequest(message) ? this.#refusal(message) : undefined;
    if (refusal) {
      void this.#inner.send(refusal).catch((err: unknown) => this.#inner.onerror?.(new Error(`Failed to send response: ${String(err)}`)));
      return;
    }
    if (this.#handler && isPlainToolCall(message)) {
      if (this.#initializing) this.#initializing.held.push(message);
      else void this.#call(message);
      return;
    }
    if ('method' in message && message.method === 'initialize' && 'id' in message) {
      this.#initializing = { id: message.id, held: [] };
      this.#initialized = true;
    }
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.#cancel(id, (message.params as { reason?: unknown }).reason);
    }
    this.#onmessage?.(message, extra);
  }

  /** The answer to a request refused before anything runs: one before `initialize`, or with params its method does not take. */
  #refusal(request: JSONRPCRequest): JSONRPCMessage | undefined {
    if (!this.#initialized && request.method !== 'initialize' && request.method !== 'ping') {
      const { error } = rpcErrorAnswer(
        new BlitzError('FAILED_PRECONDITION', `Bad Request: ${request.method.slice(0, 100)} before initialize; send initialize first`, {
          reason: 'NO_SESSION',
        }),
      );
      return { jsonrpc: '2.0', id: request.id, error };
    }
    // A plain tools/call is in the shape its schema takes (isPlainToolCall): it is not parsed twice.
    return this.#handler && isPlainToolCall(request) ? undefined : paramsRefusal(request);
  }

  /** A call cancelled while held never runs; one in flight is aborted. */
  #cancel(id: RequestId, reason: unknown): void {
    if (this.#initializing) this.#initializing.held = this.#initializing.held.filter((request) => request.id !== id);
    this.#inFlight.get(id)?.abort(reason);
  }

  async #call(request: PlainToolCall): Promise<void> {
    const cancellation = new CallCancellation();
    this.#inFlight.set(request.id, cancellation);
    let answer: JSONRPCMessage;
    try {
      const result = await this.#handler!(request, {
        requestId: request.id,
        signal: cancellation,
        sendNotification: (notification) => this.#server.notification(notification, { relatedRequestId: request.id }),
      });
      answer = resultAnswer(request.id, result);
    } catch (err) {
      answer = handlerErrorAnswer(request.id, err);
    } finally {
      if (this.#inFlight.get(request.id) === cancellation) this.#inFlight.delete(request.id);
    }
    // Cancelled (or the connection closed): the client hears nothing more of it.
    if (cancellation.aborted) return;
    await this.#inner.send(answer).catch((err: unknown) => this.#inner.onerror?.(new Error(`Failed to send response: ${String(err)}`)));
  }
}
