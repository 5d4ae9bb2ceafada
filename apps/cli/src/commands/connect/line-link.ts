import type { Duplex, Readable, Writable } from 'node:stream';
import { systemClock, type Clock } from '@blitz/clock';
import { BoundedLines, whenDrained, type OversizeLine } from '@blitz/core/lines';

const NEWLINE = Buffer.from('\n');

export interface LineLinkOptions {
  /** The longest line read from the peer; a longer one is skipped as it streams in, never held whole. */
  maxLineBytes: number;
  /**
   * The input may end while the output is still written: a client that has sent its last
   * request still reads the answers. Otherwise the input's end closes the link.
   */
  halfOpen?: boolean;
  /** Bytes read past the HTTP upgrade, already the first of the stream. */
  head?: Buffer;
  /** `close()` waits this long on it for written lines to be flushed (default: the system clock, 2 s). */
  clock?: Clock;
  flushMs?: number;
}

/** Where the lines come from and go to: one socket, or stdin and stdout. */
export type LinkStreams = Duplex | { input: Readable; output: Writable };

/**
 * One side of `blitz connect` (the client's stdio, or its connection to the daemon) as whole
 * lines of bytes: what is read is handed over a chunk at a time, cut after its last newline
 * (usually the chunk itself, not copied), and what is written goes out in one write. Nothing
 * here decodes or parses a line: the bridge reads what it needs from the bytes.
 */
export class LineLink {
  /** One or more whole lines, each ended by `\n` (a `\r` before it kept), as they were read. */
  onlines?: (lines: Buffer) => void;
  /** A line past `maxLineBytes`, skipped as it streamed in: its size and ends. */
  onoversize?: (line: OversizeLine) => void;
  /** The peer stopped writing (`halfOpen`); what is written still reaches it. */
  onend?: () => void;
  /** The link is gone both ways; fires once. */
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #options: LineLinkOptions;
  readonly #clock: Clock;
  /** A line begun in an earlier chunk, held (at most `maxLineBytes` of it) until its newline comes. */
  readonly #partial: BoundedLines;
  #holding = false;
  /** Reading is paused until the other side drains (`holdWhileBacklogged`). */
  #held = false;
  #started = false;
  #closed = false;

  constructor(streams: LinkStreams, options: LineLinkOptions) {
    const { input, output } = 'input' in streams ? streams : { input: streams, output: streams };
    this.#input = input;
    this.#output = output;
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#partial = new BoundedLines(() => options.maxLineBytes);
  }

  /** Whether the link has closed: bytes written now certainly never reach the peer. */
  get closed(): boolean {
    return this.#closed || this.#output.destroyed || this.#output.writableEnded;
  }

  start(): void {
    if (this.#started) throw new Error('LineLink was already started');
    this.#started = true;
    this.#input.on('data', (chunk: Buffer) => this.#read(chunk));
    this.#input.on('end', () => (this.#options.halfOpen ? this.onend?.() : this.#finish()));
    for (const stream of new Set([this.#input, this.#output])) stream.on('error', (err) => this.onerror?.(err));
    // The output's close ends the link; a half-open input may close before it, having ended.
    this.#output.on('close', () => this.#finish());
    if (!this.#options.halfOpen) this.#input.on('close', () => this.#finish());
    if (this.#options.head?.length) this.#read(this.#options.head);
    if (this.#input.destroyed) this.#finish();
  }

  /** Writes bytes (whole lines) in one write; false when the link is closed and nothing was written. */
  write(data: Buffer | string): boolean {
    if (this.closed) return false;
    this.#output.write(data);
    return true;
  }

  /**
   * Reading stops while `other` holds more written than it has sent (past its high-water mark),
   * and goes on once it has drained: what one side sends is never held without bound by the other.
   */
  holdWhileBacklogged(other: LineLink): void {
    if (this.#held || !other.#output.writableNeedDrain) return;
    this.#held = true;
    this.#input.pause();
    whenDrained(other.#output, () => {
      this.#held = false;
      if (!this.#closed) this.#input.resume();
    });
  }

  /** Ends the output once what was written is flushed (for at most `flushMs`), and stops reading; `onclose` fires once. */
  async close(): Promise<void> {
    if (!this.closed) {
      await new Promise<void>((resolve) => {
        // A peer that stopped reading must not hold the close (and a daemon's shutdown) forever.
        const timer = this.#clock.setTimeout(resolve, this.#options.flushMs ?? 2_000);
        this.#output.end(() => {
          timer.cancel();
          resolve();
        });
      });
    }
    this.#finish();
  }

  #read(chunk: Buffer): void {
    if (this.#closed) return;
    let from = 0;
    if (this.#holding) {
      const newline = chunk.indexOf(0x0a);
      if (newline < 0) {
        this.#partial.pushBytes(chunk);
        return;
      }
      from = newline + 1;
      this.#holding = false;
      this.#fromPartial(chunk.subarray(0, from));
    }
    const last = chunk.lastIndexOf(0x0a);
    if (last >= from) {
      const lines = from === 0 && last === chunk.length - 1 ? chunk : chunk.subarray(from, last + 1);
      // Only a chunk longer than the bound can hold a line longer than it.
      if (lines.length > this.#options.maxLineBytes) this.#fromPartial(lines);
      else this.onlines?.(lines);
      from = last + 1;
    }
    if (from < chunk.length) {
      this.#partial.pushBytes(chunk.subarray(from));
      this.#holding = true;
    }
  }

  /** Lines split by the bounded reader: each whole line handed over, each one past the bound reported. */
  #fromPartial(bytes: Buffer): void {
    for (const item of this.#partial.pushBytes(bytes)) {
      if (this.#closed) return;
      if ('oversize' in item) this.onoversize?.(item.oversize);
      else this.onlines?.(Buffer.concat([item.bytes, NEWLINE]));
    }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#partial.clear();
    this.#holding = false;
    // Our side goes too: a socket left half-open when the peer ends would outlive the session,
    // and hold a daemon's shutdown.
    this.#output.destroy();
    this.#input.destroy();
    this.onclose?.();
  }
}
