import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
  type Progress,
  type RequestId,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Clock, Timer } from '@blitz/clock';
import type { CallSignal } from './call-signal.js';

/**
 * Where the ids of direct calls start: far past any the SDK client's own sequence (from 0,
 * one a request) reaches, and within a 32-bit integer, for servers that hold ids as one.
 */
const FIRST_ID = 1_000_000_000;

export interface DirectCallOptions {
  timeoutMs: number;
  signal?: CallSignal;
  onprogress?: (progress: Progress) => void;
  /** The hub's key for the call, sent with it so that a transport can tell which call a server's question is about. */
  relatedRequestId?: RequestId;
  /** `_meta` keys sent with the call (a progress token is added when `onprogress` is given). */
  meta?: Record<string, unknown>;
}

interface Pending {
  resolve(result: CallToolResult): void;
  reject(error: unknown): void;
  onprogress?: (progress: Progress) => void;
}

/**
 * `tools/call` on a stdio link past the SDK client's generic request machinery — its zod
 * checks of every message and of the result, its closures, listeners and timers per request,
 * the larger part of the daemon's own cost of a call. The request goes out on the client's
 * transport with an id of our own; its answer and its progress are taken off the transport
 * before the client sees them. Everything else (the server's own requests, notifications,
 * other methods) goes through the client as ever. As the SDK does: a timeout or an abort
 * sends `notifications/cancelled` and rejects; an error answer rejects with its McpError;
 * the transport closing rejects with ConnectionClosed. A tool with an output schema or task
 * support is not for this path (`takes`): the SDK client validates and runs those.
 */
export class DirectToolCalls {
  readonly #transport: Transport;
  readonly #clock: Clock;
  readonly #pending = new Map<number, Pending>();
  #nextId = FIRST_ID;
  #closed = false;

  /** Over a transport the SDK client is already connected on (its handlers are wrapped, not replaced). */
  constructor(transport: Transport, clock: Clock) {
    this.#transport = transport;
    this.#clock = clock;
    const toClient = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (this.#pending.size > 0 && this.#take(message)) return;
      toClient?.(message, extra);
    };
    const closeClient = transport.onclose;
    transport.onclose = () => {
      this.#close();
      closeClient?.();
    };
  }

  /** Whether a call of `tool` can go this way: no output schema to validate, no task to run. */
  static takes(tool: Tool | undefined): boolean {
    if (!tool || tool.outputSchema) return false;
    const taskSupport = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
    return taskSupport === undefined || taskSupport === 'forbidden';
  }

  call(name: string, args: Record<string, unknown>, opts: DirectCallOptions): Promise<CallToolResult> {
    const { signal, onprogress, timeoutMs } = opts;
    if (this.#closed) return Promise.reject(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.#nextId++;
    return new Promise<CallToolResult>((resolve, reject) => {
      const onAbort = () =>
        cancel(
          signal!.reason instanceof McpError ? signal!.reason : new McpError(ErrorCode.RequestTimeout, String(signal!.reason)),
          String(signal!.reason),
        );
      const settle = () => {
        this.#pending.delete(id);
        timer.cancel();
        forgetAbort?.();
      };
      const cancel = (error: McpError, reason: string) => {
        settle();
        this.#transport
          .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } })
          .catch((err: unknown) => this.#transport.onerror?.(new Error(`Failed to send cancellation: ${String(err)}`)));
        reject(error);
      };
      this.#pending.set(id, {
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
        ...(onprogress ? { onprogress } : {}),
      });
      const timer: Timer = this.#clock.setTimeout(
        () => cancel(McpError.fromError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs }), 'Request timed out'),
        timeoutMs,
      );
      const forgetAbort = signal?.onAbort(onAbort);
      const meta = onprogress ? { ...opts.meta, progressToken: id } : opts.meta;
      const params = meta ? { name, arguments: args, _meta: meta } : { name, arguments: args };
      this.#transport
        .send(
          { jsonrpc: '2.0', id, method: 'tools/call', params },
          opts.relatedRequestId === undefined ? undefined : { relatedRequestId: opts.relatedRequestId },
        )
        .catch((err: unknown) => this.#pending.get(id)?.reject(err));
    });
  }

  /** Takes an answer to a call of ours, or its progress; false for anything else. */
  #take(message: JSONRPCMessage): boolean {
    if ('method' in message) {
      if (message.method !== 'notifications/progress' || 'id' in message) return false;
      const { progressToken, ...progress } = (message.params ?? {}) as Progress & { progressToken?: unknown };
      const pending = typeof progressToken === 'number' ? this.#pending.get(progressToken) : undefined;
      if (!pending?.onprogress) return false;
      pending.onprogress(progress);
      return true;
    }
    if (!('id' in message)) return false;
    const pending = this.#pending.get(Number(message.id));
    if (!pending) return false;
    if ('error' in message) {
      const { code, message: text, data } = message.error;
      pending.reject(McpError.fromError(code, text, data));
    } else {
      const problem = callToolResultProblem(message.result);
      if (problem) pending.reject(new Error(`the result of tools/call is not a CallToolResult: ${problem}`));
      else pending.resolve(withContent(message.result as CallToolResult));
    }
    return true;
  }

  #close(): void {
    this.#closed = true;
    for (const pending of [...this.#pending.values()]) pending.reject(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
  }
}

/**
 * What is wrong with a tools/call result, if anything: the fields every client relies on, each
 * content block a typed object. Every field is kept as the server sent it; the client at the
 * other end validates the whole result against its own schema.
 */
export function callToolResultProblem(result: unknown): string | undefined {
  if (!isRecord(result)) return 'not an object';
  const { content, structuredContent, isError } = result;
  if (content !== undefined) {
    if (!Array.isArray(content)) return '"content" is not an array';
    for (const block of content as unknown[])
      if (!isRecord(block) || typeof block.type !== 'string') return 'a "content" block without a "type"';
  }
  if (structuredContent !== undefined && !isRecord(structuredContent)) return '"structuredContent" is not an object';
  if (isError !== undefined && typeof isError !== 'boolean') return '"isError" is not a boolean';
  if (result._meta !== undefined && !isRecord(result._meta)) return '"_meta" is not an object';
  return undefined;
}

/** `content` is always there, as the SDK's schema makes it (empty when the server left it out). */
function withContent(result: CallToolResult): CallToolResult {
  return result.content === undefined ? { ...result, content: [] } : result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
