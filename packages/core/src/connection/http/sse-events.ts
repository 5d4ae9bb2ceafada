const LF = 0x0a;
const CR = 0x0d;
/** Each field's line prefix, made once: `eventField` runs for every event of a stream. */
const FIELD_PREFIX = { data: Buffer.from('data:'), id: Buffer.from('id:'), event: Buffer.from('event:') };

/**
 * Splits a server-sent event stream into its events as its bytes arrive. Lines end in CRLF, LF
 * or CR, and a blank line ends an event. Each byte is looked at once, so a large event arriving
 * in many small chunks costs what its size does, never a rescan of what was held.
 */
export class EventSplitter {
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  #lineLength = 0;
  #afterCR = false;

  /** Bytes of the event begun and not yet ended. */
  get pendingBytes(): number {
    return this.#heldBytes;
  }

  /** The events `chunk` ends, each whole with its line endings; the rest is held for the next chunk. */
  push(chunk: Uint8Array): Uint8Array[] {
    const events: Uint8Array[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      const afterCR = this.#afterCR;
      this.#afterCR = byte === CR;
      // The LF of a CRLF: its line already ended at the CR.
      if (byte === LF && afterCR) continue;
      if (byte !== LF && byte !== CR) {
        this.#lineLength++;
        continue;
      }
      if (this.#lineLength > 0) {
        this.#lineLength = 0;
        continue;
      }
      // A blank line: the event is whole, the LF of a CRLF ending it included when it is here.
      const end = byte === CR && chunk[i + 1] === LF ? i + 2 : i + 1;
      if (end === i + 2) this.#afterCR = false;
      events.push(this.#take(chunk.subarray(start, end)));
      start = end;
      i = end - 1;
    }
    if (start < chunk.length) this.#hold(chunk.subarray(start));
    return events;
  }

  /** What the stream left when it ended: an event never ended by a blank line, if any. */
  end(): Uint8Array | undefined {
    return this.#heldBytes === 0 ? undefined : this.#take(new Uint8Array(0));
  }

  #hold(bytes: Uint8Array): void {
    this.#held.push(bytes);
    this.#heldBytes += bytes.length;
  }

  #take(last: Uint8Array): Uint8Array {
    const event = this.#held.length === 0 ? last : Buffer.concat([...this.#held, last]);
    this.#held = [];
    this.#heldBytes = 0;
    return event;
  }
}

/**
 * The value of one field of an event (`data` lines joined by LF, as SSE says; otherwise the
 * last line's), decoding only the lines of that field; undefined when the event has none.
 */
export function eventField(event: Uint8Array, field: 'data' | 'id' | 'event'): string | undefined {
  const bytes = Buffer.from(event.buffer, event.byteOffset, event.byteLength);
  const name = FIELD_PREFIX[field];
  const values: string[] = [];
  for (let at = 0; at < bytes.length;) {
    let end = at;
    while (end < bytes.length && bytes[end] !== LF && bytes[end] !== CR) end++;
    if (end - at >= name.length && bytes.compare(name, 0, name.length, at, at + name.length) === 0) {
      const from = at + name.length + (bytes[at + name.length] === 0x20 ? 1 : 0);
      values.push(bytes.toString('utf8', from, end));
    }
    at = end + (bytes[end] === CR && bytes[end + 1] === LF ? 2 : 1);
  }
  if (values.length === 0) return undefined;
  return field === 'data' ? values.join('\n') : values[values.length - 1];
}
