import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { BlitzError } from '../../errors/blitz-error.js';
import { batchWrites } from '../../jsonrpc/batch-writes.js';
import { answerId, isNotification, isRequest } from '../../jsonrpc/jsonrpc-shape.js';
import { oversizeId, type OversizeLine } from '../../jsonrpc/bounded-lines.js';
import { MessageLines, type MessageLine } from '../../jsonrpc/message-lines.js';
import { systemCause, type ServerCause } from '../../causes/server-cause.js';
import { crashLine } from './crash-line.js';
import type { OwnedProcess, ProcessExit } from './owned-process.js';

/** How many stderr lines an exit error quotes. */
export const EXIT_STDERR_LINES = 20;
/** After a failed write, how long to wait for the exit that usually explains it (EPIPE). */
const WRITE_FAILURE_EXIT_WAIT_MS = 2_000;
/** After the end of its stdout, how long to wait for the exit that usually follows it at once. */
const STDOUT_END_EXIT_WAIT_MS = 500;

export interface StdioTransportOptions {
  /** The server's name, for messages. */
  name: string;
  /** Starts the process; called once, by `start()`. May throw a `BlitzError` (e.g. no sandbox). */
  spawn: () => OwnedProcess;
  stderrLines?: number;
  /** The largest message held from the server (default 16 MB); a larger one is refused, never buffered whole. */
  maxMessageBytes?: () => number;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** "MCP server x exited with code 3", then the last lines of its stderr. */
export function describeExit(name: string, exit: ProcessExit, stderrTail: readonly string[]): string {
  const head = exit.error
    ? `MCP server ${name} could not start: ${exit.error.message}`
    : exit.signal
      ? `MCP server ${name} exited on signal ${exit.signal}`
      : `MCP server ${name} exited with code ${exit.code}`;
  return stderrTail.length > 0 ? `${head}; its stderr ends with:\n${stderrTail.join('\n')}` : head;
}

/** An exit as facts: how it ended and the stderr line that says why; a spawn's error by its code. */
export function exitCause(exit: ProcessExit, stderrTail: readonly string[]): ServerCause | undefined {
  if (exit.error) return systemCause(exit.error);
  const line = crashLine(stderrTail);
  const how = exit.signal ? `exited on signal ${exit.signal}` : `exited with code ${exit.code}`;
  return line === undefined ? { code: 'EXITED', how } : { code: 'EXITED', how, line };
}

/**
 * An MCP transport over the pipes of a process we own. Unlike the SDK's stdio client it
 * tolerates lines on stdout that are not JSON-RPC, and it ends the connection the moment the
 * process exits: requests in flight fail at once with the exit code and stderr tail instead
 * of waiting for their timeout. A process that closes its stdout and keeps running can never
 * answer again: its requests fail at once too (`STDOUT_CLOSED`), and it is stopped.
 */
export class StdioTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];

  readonly name: string;
  readonly #spawn: () => OwnedProcess;
  readonly #stderrLines: number;
  readonly #lines: MessageLines;
  readonly #maxMessageBytes: () => number;
  /** Requests we sent that the server has not answered, to fail them if it dies. */
  readonly #inFlight = new Set<RequestId>();
  /** Writes the pipe has not taken yet: they fail when the process exits. */
  readonly #pendingWrites = new Set<(err: Error) => void>();
  #process: OwnedProcess | undefined;
  /** Lines read but not handed on yet (see `#handOn`). */
  readonly #incoming: MessageLine[] = [];
  /** Settles once every line read so far has been handed on. */
  #handedOn: Promise<void> = Promise.resolve();
  #garbageLines = 0;
  #exitError: BlitzError | undefined;
  #stopping = false;
  /** The process closed its stdout and kept running: it is being stopped, nothing more is sent. */
  #stdoutClosed = false;
  #closed = false;

  constructor(options: StdioTransportOptions) {
    this.name = options.name;
    this.#spawn = options.spawn;
    this.#stderrLines = options.stderrLines ?? EXIT_STDERR_LINES;
    this.#maxMessageBytes = options.maxMessageBytes ?? (() => DEFAULT_MAX_MESSAGE_BYTES);
    this.#lines = new MessageLines(this.#maxMessageBytes);
  }

  /** The process, once started. */
  get process(): OwnedProcess | undefined {
    return this.#process;
  }

  /** Lines on stdout that were not JSON-RPC and were skipped. */
  get garbageLines(): number {
    return this.#garbageLines;
  }

  /** Why the connection ended, when the process exited or failed to start without `close()`. */
  get exitError(): BlitzError | undefined {
    return this.#exitError;
  }

  async start(): Promise<void> {
    if (this.#process || this.#closed) throw new Error(`StdioTransport for ${this.name} was already started`);
    const proc = this.#spawn();
    this.#process = proc;
    proc.stdout.on('data', (chunk: Buffer) => this.#onData(chunk));
    // After what was read before it, as the exit is.
    proc.stdout.once('end', () => void this.#handedOn.then(() => this.#onStdoutEnd(proc)));
    // After what was read before the exit: its answers go first, the close last.
    void proc.ended.then((exit) => {
      if (this.#incoming.length === 0) this.#onEnded(proc, exit);
      else void this.#handedOn.then(() => this.#onEnded(proc, exit));
    });
    try {
      await proc.spawned;
    } catch (err) {
      throw this.#failure(proc.exit ?? { code: null, signal: null, error: err as Error }, proc);
    }
  }

  /**
   * A request stays in flight until it is answered or we know the process is alive: when the
   * process has exited (or a write meets it on its way out), `#onEnded` answers the request
   * with the exit code and stderr before it closes the connection, so the caller hears why
   * instead of the SDK's "Connection closed", whichever comes first.
   */
  send(message: JSONRPCMessage): Promise<void> {
    const proc = this.#process;
    if (!proc || this.#closed || this.#stdoutClosed)
      return Promise.reject(this.#exitError ?? new BlitzError('SERVER_UNAVAILABLE', `MCP server ${this.name} is not running`));
    let line: string;
    try {
      line = `${JSON.stringify(message)}\n`;
    } catch (err) {
      // Ours to blame, not the server's: it never saw the message, and the breaker must not count it.
      return Promise.reject(
        new BlitzError('INVALID_ARGUMENT', `the message for MCP server ${this.name} cannot be written as JSON: ${(err as Error).message}`, {
          cause: err,
        }),
      );
    }
    const id = isRequest(message) ? message.id : undefined;
    if (id !== undefined) this.#inFlight.add(id);
    if ('method' in message && message.method === 'notifications/cancelled') {
      const cancelled = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (cancelled !== undefined) this.#inFlight.delete(cancelled);
    }
    if (proc.exit) return this.#exited(proc);
    return this.#write(proc, line, id);
  }

  /** Exited, its pipes still draining: wait for the whole stderr tail. */
  async #exited(proc: OwnedProcess): Promise<never> {
    await proc.ended;
    throw this.#exitError ?? this.#errorFor(proc.exit!, proc);
  }

  /** Runs the process's close sequence; `onclose` fires once it has exited. */
  async close(): Promise<void> {
    this.#stopping = true;
    const proc = this.#process;
    if (proc) {
      await proc.close();
      await proc.ended;
    }
    this.#finish();
  }

  #onData(chunk: Buffer): void {
    const idle = this.#incoming.length === 0;
    this.#incoming.push(...this.#lines.push(chunk));
    if (idle && this.#incoming.length > 0) this.#handedOn = this.#handOn().catch((err: unknown) => this.onerror?.(err as Error));
  }

  /**
   * Hands on the lines read, in order, a microtask after each notification: the SDK runs a
   * notification's handler a microtask after it arrives but a response at once, so a progress
   * notification read together with its call's result found its handler already gone and was
   * dropped (the last progress of a quick tool, seen through the hub).
   */
  async #handOn(): Promise<void> {
    while (this.#incoming.length > 0) {
      const item = this.#incoming.shift()!;
      this.#handle(item);
      if (this.#incoming.length > 0 && 'message' in item && isNotification(item.message)) await Promise.resolve();
    }
  }

  #handle(item: MessageLine): void {
    if ('oversize' in item) {
      this.#onOversize(item.oversize);
    } else if ('invalid' in item) {
      // The bad line is consumed; servers that log to stdout should not lose their connection.
      this.#garbageLines += 1;
      this.onerror?.(new Error(`MCP server ${this.name} wrote a line to stdout that is not JSON-RPC (ignored): ${item.detail}`));
    } else {
      const answered = answerId(item.message);
      if (answered !== undefined) this.#inFlight.delete(answered);
      this.onmessage?.(item.message);
    }
  }

  /**
   * A message past the limit was skipped: answer the request it answered with an error
   * naming its size, so the caller hears why at once instead of waiting for its timeout.
   */
  #onOversize(line: OversizeLine): void {
    const found = oversizeId(line);
    const id = found !== undefined && this.#inFlight.has(found) ? found : this.#inFlight.size === 1 ? [...this.#inFlight][0] : undefined;
    const message = `MCP server ${this.name} sent a message of ${formatMb(line.bytes)}, more than the limit of ${formatMb(this.#maxMessageBytes())} ([hub] max_result_mb); it was not passed on`;
    this.onerror?.(new Error(message));
    if (id === undefined) return;
    this.#inFlight.delete(id);
    this.onmessage?.({
      jsonrpc: '2.0',
      id,
      error: { code: ErrorCode.InternalError, message, data: { code: 'RESULT_TOO_LARGE', bytes: line.bytes } },
    });
  }

  /**
   * Its stdout ended. A process that exits now says why by its exit; one still running past a
   * short wait can never answer again (issue 25.7): what is in flight fails at once with a
   * `STDOUT_CLOSED` error, the process (its group) is stopped, and the connection closes once it is gone.
   */
  async #onStdoutEnd(proc: OwnedProcess): Promise<void> {
    if (this.#stopping || this.#closed || (await proc.exitsWithin(STDOUT_END_EXIT_WAIT_MS))) return;
    if (this.#stopping || this.#closed) return;
    this.#stdoutClosed = true;
    this.#stopping = true;
    const head = `MCP server ${this.name} closed its stdout but kept running, so it can answer nothing more; it was stopped`;
    const tail = proc.stderr.lastLines(this.#stderrLines);
    const error = new BlitzError('SERVER_UNAVAILABLE', tail.length > 0 ? `${head}; its stderr ends with:\n${tail.join('\n')}` : head, {
      reason: 'STDOUT_CLOSED',
    });
    this.#exitError ??= error;
    this.onerror?.(error);
    for (const id of this.#inFlight) {
      this.onmessage?.({
        jsonrpc: '2.0',
        id,
        error: { code: ErrorCode.ConnectionClosed, message: error.message, data: { code: error.code, reason: 'STDOUT_CLOSED' } },
      });
    }
    this.#inFlight.clear();
    // Its end runs #onEnded, which closes the connection (stopping: no crash reported).
    await proc.close();
  }

  #onEnded(proc: OwnedProcess, exit: ProcessExit): void {
    for (const reject of this.#pendingWrites) reject(new Error('the process exited while a message was being written'));
    this.#pendingWrites.clear();
    if (this.#closed) return;
    if (!this.#stopping) {
      const error = this.#failure(exit, proc);
      this.onerror?.(error);
      // Answer what is in flight with the reason, so callers see it rather than "Connection closed".
      for (const id of this.#inFlight) {
        this.onmessage?.({
          jsonrpc: '2.0',
          id,
          error: {
            code: ErrorCode.ConnectionClosed,
            message: error.message,
            data: {
              code: error.code,
              exitCode: exit.code,
              signal: exit.signal,
              ...(error.serverCause ? { serverCause: error.serverCause } : {}),
            },
          },
        });
      }
      // A crashed leader may leave helpers behind; close() kills its group.
      void proc.close();
    }
    this.#finish();
  }

  /**
   * Writes one message, done once the pipe has taken it; fails if the process exits first,
   * with why (`#writeFailure`). One promise a message: `send` is not async for it.
   */
  #write(proc: OwnedProcess, data: string, id: RequestId | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const failed = (err: Error) => {
        this.#pendingWrites.delete(failed);
        void this.#writeFailure(proc, err, id).then(reject, reject);
      };
      this.#pendingWrites.add(failed);
      batchWrites(proc.stdin);
      proc.stdin.write(data, (err) => {
        if (err) failed(err);
        else {
          this.#pendingWrites.delete(failed);
          resolve();
        }
      });
    });
  }

  /** A write to a process that just died fails with EPIPE; report the death instead. */
  async #writeFailure(proc: OwnedProcess, err: Error, id: RequestId | undefined): Promise<BlitzError> {
    if (await proc.exitsWithin(WRITE_FAILURE_EXIT_WAIT_MS)) {
      await proc.ended; // #onEnded has run by now, answered the request and set the exit error.
      if (this.#exitError) return this.#exitError;
    }
    if (id !== undefined) this.#inFlight.delete(id);
    return new BlitzError('SERVER_UNAVAILABLE', `MCP server ${this.name} is not reading its stdin: ${err.message}`, { cause: err });
  }

  /** The error for this exit, kept as the transport's `exitError` from the first call on. */
  #failure(exit: ProcessExit, proc: OwnedProcess): BlitzError {
    this.#exitError ??= this.#errorFor(exit, proc);
    return this.#exitError;
  }

  #errorFor(exit: ProcessExit, proc: OwnedProcess): BlitzError {
    const tail = proc.stderr.lastLines(this.#stderrLines);
    const message = describeExit(this.name, exit, tail);
    const serverCause = exitCause(exit, tail);
    return new BlitzError(exit.error ? 'SERVER_UNAVAILABLE' : 'SERVER_EXITED', message, {
      cause: exit.error,
      ...(serverCause ? { serverCause } : {}),
    });
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#inFlight.clear();
    this.#lines.clear();
    this.onclose?.();
  }
}

function formatMb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
