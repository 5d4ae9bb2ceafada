/** What is kept of a line too long to hold: its size and its ends, where a JSON-RPC id sits. */
export interface OversizeLine {
  bytes: number;
  head: string;
  tail: string;
}

export type LineItem = { line: string } | { oversize: OversizeLine };
/** A line as its bytes (`pushBytes`): ended, its `\r` kept. */
export type ByteLineItem = { bytes: Buffer } | { oversize: OversizeLine };

const END_BYTES = 512;

/**
 * Splits a byte stream into lines, holding at most `maxBytes()` of one line: a longer line
 * is skipped as it streams in, never buffered whole, and reported with its size and ends.
 */
export class BoundedLines {
  readonly #maxBytes: () => number;
  #chunks: Buffer[] = [];
  #size = 0;
  #skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(maxBytes: () => number) {
    this.#maxBytes = maxBytes;
  }

  /**
   * The lines a chunk ends, decoded. Those wholly inside it (a burst of messages read at
   * once) are decoded together, as one string cut at its newlines — one decoding a chunk, not
   * one a line — when together they are within the limit, so none of them can be past it; a
   * newline byte is never part of a longer UTF-8 character, so each line decodes the same.
   */
  push(chunk: Buffer): LineItem[] {
    const items: LineItem[] = [];
    let rest = chunk;
    if (this.#size > 0 || this.#skipping) {
      // A line begun in an earlier chunk ends first, from its bytes.
      const newline = rest.indexOf(0x0a);
      if (newline < 0) {
        this.#take(rest);
        return items;
      }
      this.#take(rest.subarray(0, newline));
      items.push(this.#lineItem());
      rest = rest.subarray(newline + 1);
    }
    const last = rest.lastIndexOf(0x0a);
    if (last >= 0 && last <= this.#maxBytes()) {
      cutLines(rest.toString('utf8', 0, last), items);
      rest = rest.subarray(last + 1);
    }
    for (const item of this.#split(rest, () => this.#lineItem())) items.push(item);
    return items;
  }

  #lineItem(): LineItem {
    const bytes = this.#held();
    return 'bytes' in bytes ? { line: dropCr(bytes.bytes.toString('utf8')) } : bytes;
  }

  /** As `push`, each line as its bytes, not decoded: for a reader that passes lines on as they are. */
  pushBytes(chunk: Buffer): ByteLineItem[] {
    return this.#split(chunk, () => this.#held());
  }

  #split<T>(chunk: Buffer, endLine: () => T): T[] {
    const items: T[] = [];
    let rest = chunk;
    for (;;) {
      const newline = rest.indexOf(0x0a);
      const part = newline < 0 ? rest : rest.subarray(0, newline);
      this.#take(part);
      if (newline < 0) return items;
      items.push(endLine());
      rest = rest.subarray(newline + 1);
    }
  }

  clear(): void {
    this.#chunks = [];
    this.#size = 0;
    this.#skipping = undefined;
  }

  #take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.#skipping) {
      this.#skip(part);
      return;
    }
    if (this.#size + part.length <= this.#maxBytes()) {
      this.#chunks.push(part);
      this.#size += part.length;
      return;
    }
    const held = Buffer.concat(this.#chunks);
    this.#chunks = [];
    this.#size = 0;
    this.#skipping = { bytes: 0, head: Buffer.alloc(0), tail: Buffer.alloc(0) };
    this.#skip(held);
    this.#skip(part);
  }

  #skip(part: Buffer): void {
    const s = this.#skipping!;
    if (s.head.length < END_BYTES) s.head = Buffer.concat([s.head, part.subarray(0, END_BYTES - s.head.length)]);
    s.tail = Buffer.concat([s.tail, part]).subarray(-END_BYTES);
    s.bytes += part.length;
  }

  /** The line ended now: its bytes (one part taken as it is, not copied), or what was kept of it. */
  #held(): ByteLineItem {
    if (this.#skipping) {
      const { bytes, head, tail } = this.#skipping;
      this.#skipping = undefined;
      return { oversize: { bytes, head: head.toString('utf8'), tail: tail.toString('utf8') } };
    }
    const bytes = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#chunks = [];
    this.#size = 0;
    return { bytes };
  }
}

/** Each line of `text` (newline-separated, the last one not ended) into `items`, a trailing CR dropped. */
function cutLines(text: string, items: LineItem[]): void {
  let at = 0;
  for (;;) {
    const newline = text.indexOf('\n', at);
    if (newline < 0) {
      items.push({ line: dropCr(text.slice(at)) });
      return;
    }
    items.push({ line: dropCr(text.slice(at, newline)) });
    at = newline + 1;
  }
}

function dropCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/**
 * The id of an oversize JSON-RPC response, from its ends: SDK servers write the id last
 * (`…,"jsonrpc":"2.0","id":3}`), others first (`{"jsonrpc":"2.0","id":3,…`).
 */
export function oversizeId(line: OversizeLine): string | number | undefined {
  const id =
    /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(line.tail)?.[1] ??
    /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(line.head)?.[1];
  if (id === undefined) return undefined;
  return id.startsWith('"') ? (JSON.parse(id) as string) : Number(id);
}
