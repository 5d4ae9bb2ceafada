import type { Duplex, Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { systemClock, type Clock } from '@blitz/clock';
import { BlitzError } from '../errors/blitz-error.js';
import { batchWrites } from './batch-writes.js';
import type { OversizeLine } from './bounded-lines.js';
import { refuseClientMessage } from './client-message-refusal.js';
import { invalidLineRefusal, oversizeMessage, oversizeRefusal, type LineRefusal } from './line-refusals.js';
import { MessageLines, type MessageLine } from './message-lines.js';
import { whenDrained } from './when-drained.js';

/** What a write the stream took at once answers: settled, shared by every such write. */
const WRITTEN: Promise<void> = Promise.resolve();

export interface JsonLinesOptions {
  /** The largest message read from the peer; a larger one is skipped as it streams, never held whole. */
  maxMessageBytes: number;
  /**
   * The deepest message read from the peer (`MAX_MESSAGE_DEPTH` for a client): a deeper request
   * is answered with -32602 and never passed on, a deeper notification or response dropped;
   * so is a request with a bad id or params (refuseClientMessage).
   * No bound when absent: what the daemon sends the bridge is bounded where it is made.
   */
  maxDepth?: number;
  /** Bytes read past the HTTP upgrade, already the first of the stream. */
  head?: Buffer;
  /** `close()` waits this long on it for written lines to be flushed (default: the system clock, 2 s). */
  clock?: Clock;
  flushMs?: number;
}

/** Where the lines come from and go to: one socket, or stdin and stdout. */
export type LineStreams = Duplex | { input: Readable; output: Writable };

/**
 * MCP's stdio framing (one JSON-RPC message per line) over any byte streams: what
 * `blitz connect` speaks with its client on stdio, and with the daemon over an upgraded
 * loopback connection. Cheaper than a POST per message, and the connection is the session:
 * when it closes, the session ends.
 */
export class JsonLinesTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #lines: MessageLines;
  readonly #maxBytes: number;
  readonly #maxDepth: number | undefined;
  readonly #head: Buffer | undefined;
  readonly #clock: Clock;
  readonly #flushMs: number;
  #started = false;
  #closed = false;
  /** The writes made past the output's high-water mark wait on this, until it drains or closes. */
  #drained: Promise<void> | undefined;

  constructor(streams: LineStreams, options: JsonLinesOptions) {
    const { input, output } = 'input' in streams ? streams : { input: streams, output: streams };
    this.#input = input;
    this.#output = output;
    this.#maxBytes = options.maxMessageBytes;
    this.#maxDepth = options.maxDepth;
    this.#lines = new MessageLines(() => this.#maxBytes);
    this.#head = options.head;
    this.#clock = options.clock ?? systemClock;
    this.#flushMs = options.flushMs ?? 2_000;
  }

  /** Whether the stream has closed: a message sent now certainly never reached the peer. */
  get closed(): boolean {
    return this.#closed || this.#output.destroyed || this.#output.writableEnded;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('JsonLinesTransport was already started');
    this.#started = true;
    const read = (chunk: Buffer) => this.#onData(chunk);
    this.#input.on('data', read);
    for (const stream of new Set([this.#input, this.#output])) {
      stream.on('error', (err) => this.onerror?.(err));
      stream.on('close', () => this.#finish());
    }
    this.#input.on('end', () => this.#finish());
    if (this.#head?.length) read(this.#head);
    if (this.#input.destroyed) this.#finish();
  }

  send(message: JSONRPCMessage): Promise<void> {
    let line: string;
    try {
      line = `${JSON.stringify(message)}\n`;
    } catch (err) {
      return Promise.reject(err);
    }
    return this.#write(line);
  }

  /**
   * Not async: most writes are taken at once, and their callers (a message a call) are
   * answered with one promise already settled rather than two made for each.
   */
  #write(data: string): Promise<void> {
    if (this.closed) return Promise.reject(new BlitzError('SERVER_UNAVAILABLE', 'the connection is closed; the message was not sent'));
    batchWrites(this.#output);
    if (this.#output.write(data)) return WRITTEN;
    return (this.#drained ??= this.#whenDrained());
  }

  /** One wait for the output to drain, shared by every write made while it is backlogged. */
  #whenDrained(): Promise<void> {
    return new Promise<void>((resolve) =>
      whenDrained(this.#output, () => {
        this.#drained = undefined;
        resolve();
      }),
    );
  }

  /** Ends the output once what was written is flushed (for at most `flushMs`), and stops reading; `onclose` fires once. */
  async close(): Promise<void> {
    if (!this.closed) {
      await new Promise<void>((resolve) => {
        // A peer that stopped reading must not hold the close (and a daemon's shutdown) forever.
        const timer = this.#clock.setTimeout(resolve, this.#flushMs);
        this.#output.end(() => {
          timer.cancel();
          resolve();
        });
      });
    }
    this.#finish();
  }

  #onData(chunk: Buffer): void {
    for (const item of this.#lines.push(chunk)) this.#handle(item);
  }

  #handle(item: MessageLine): void {
    if ('oversize' in item) this.#onOversize(item.oversize);
    else if ('invalid' in item) this.#refuse(invalidLineRefusal(item.invalid));
    else if (this.#maxDepth === undefined) this.onmessage?.(item.message);
    else this.#deliverBounded(item.message, this.#maxDepth);
  }

  /** A client's message: one that is malformed (a bad id or params, too deep) is answered here, never passed on. */
  #deliverBounded(message: JSONRPCMessage, maxDepth: number): void {
    const refusal = refuseClientMessage(message, maxDepth);
    if (refusal === undefined) {
      this.onmessage?.(message);
      return;
    }
    this.onerror?.(new Error(refusal.why));
    if (refusal.answer) this.#refuse(refusal.answer);
  }

  /** A line past the limit was skipped: a request is answered, so its sender hears why at once. */
  #onOversize(line: OversizeLine): void {
    this.onerror?.(new Error(oversizeMessage(line, this.#maxBytes)));
    const refusal = oversizeRefusal(line, this.#maxBytes);
    if (refusal) this.#refuse(refusal);
  }

  #refuse(refusal: LineRefusal): void {
    if (!this.closed) this.#output.write(`${JSON.stringify(refusal)}\n`);
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#lines.clear();
    // Our side goes too: a socket left half-open when the peer ends would outlive the session,
    // and hold a daemon's shutdown.
    this.#output.destroy();
    this.#input.destroy();
    this.onclose?.();
  }
}
