/**
 * An answer serialised, and masked, ahead of time (the status the tray polls): the server
 * sends its bytes as they are, with no redaction walk and no `JSON.stringify` per request.
 */
export class JsonBytes {
  readonly bytes: Buffer;

  private constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  /** `value` must already be what may be shown: these bytes are sent unmasked. */
  static of(value: unknown): JsonBytes {
    return new JsonBytes(Buffer.from(JSON.stringify(value)));
  }

  get text(): string {
    return this.bytes.toString('utf8');
  }
}

/** What the server writes for an answer's body. */
export function bodyBytes(body: unknown): Buffer | string {
  return body instanceof JsonBytes ? body.bytes : JSON.stringify(body);
}
