import crypto from 'node:crypto';

/**
 * An answer serialised, and masked, ahead of time (the status the tray polls): the server
 * sends its bytes as they are, with no redaction walk and no `JSON.stringify` per request.
 * Its `etag` names these bytes, so a client holding them can ask whether they still hold
 * (`If-None-Match`) and be answered 304 with no body.
 */
export class JsonBytes {
  readonly bytes: Buffer;
  /** A strong entity tag from the bytes themselves: equal bytes, equal tag, in any daemon. */
  readonly etag: string;

  private constructor(bytes: Buffer) {
    this.bytes = bytes;
    this.etag = `"${crypto.createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
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

/**
 * Whether an `If-None-Match` header names `etag` (RFC 9110 §13.1.2: a list, weak comparison,
 * `*` for any): the client's copy is current, the answer is 304.
 */
export function stillMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const tags = (Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch).split(',').map((t) => t.trim().replace(/^W\//, ''));
  return tags.includes('*') || tags.includes(etag);
}
