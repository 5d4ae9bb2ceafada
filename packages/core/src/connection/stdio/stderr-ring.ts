/** How much of a server's stderr is kept: enough for a stack trace, bounded for a flood. */
export const STDERR_RING_BYTES = 64 * 1024;

/** Keeps the last `limit` bytes written to it, dropping the oldest. */
export class StderrRing {
  readonly limit: number;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(limit = STDERR_RING_BYTES) {
    this.limit = limit;
  }

  append(chunk: Buffer | string): void {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (buf.length >= this.limit) {
      buf = buf.subarray(buf.length - this.limit);
      this.#chunks = [];
      this.#size = 0;
    }
    this.#chunks.push(buf);
    this.#size += buf.length;
    while (this.#size > this.limit) {
      const first = this.#chunks[0]!;
      const excess = this.#size - this.limit;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#size -= first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#size -= excess;
      }
    }
  }

  get size(): number {
    return this.#size;
  }

  /** The kept bytes as text; a character cut in half at the start decodes as U+FFFD. */
  text(): string {
    return Buffer.concat(this.#chunks, this.#size).toString('utf8');
  }

  lastLines(count: number): string[] {
    return lastLines(this.text(), count);
  }
}

/** The last `count` non-empty lines of `text`, oldest first, without line endings. */
export function lastLines(text: string, count: number): string[] {
  if (count <= 0) return [];
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines.slice(-count);
}
