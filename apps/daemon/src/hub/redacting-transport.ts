import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { Redactor } from '@blitz/core';

/**
 * What a session sends to its client, with the texts Blitz writes redacted (MCP-42): error
 * answers (a dead server's stderr tail lands in them), logging notifications (notices), and
 * tool results marked `isError`. A result proper is what the tool was asked for and passes
 * unchanged. One place for both transports, so no error path of the SDK or ours is missed.
 */
export function redactOutgoing(message: JSONRPCMessage, redactor: Redactor): JSONRPCMessage {
  if ('error' in message && message.error) {
    const { message: text, data } = message.error;
    return {
      ...message,
      error: { ...message.error, message: redactor.redact(text), ...(data === undefined ? {} : { data: redactor.redactValue(data) }) },
    };
  }
  if ('method' in message && message.method === 'notifications/message' && message.params) {
    return { ...message, params: { ...message.params, data: redactor.redactValue(message.params.data) } };
  }
  if ('result' in message && (message.result as { isError?: unknown }).isError === true) {
    return { ...message, result: redactor.redactValue(message.result) as typeof message.result };
  }
  return message;
}

/** A session's transport as the SDK server sees it: every message out through `redactOutgoing`. */
export class RedactingTransport implements Transport {
  readonly #inner: Transport;
  readonly #redactor: Redactor;

  constructor(inner: Transport, redactor: Redactor) {
    this.#inner = inner;
    this.#redactor = redactor;
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

  get onmessage(): (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined {
    return this.#inner.onmessage;
  }
  set onmessage(fn: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined) {
    this.#inner.onmessage = fn;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(redactOutgoing(message, this.#redactor), options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
