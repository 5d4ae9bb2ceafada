import { isUtf8 } from 'node:buffer';

export type Decoded =
  { readonly kind: 'text'; readonly text: string } | { readonly kind: 'invalid'; readonly line: number; readonly column: number };

/**
 * Decodes UTF-8 strictly. Node's usual decoding turns bad bytes into U+FFFD, and an edit
 * would then write those characters back where the bytes were: the first bad byte is
 * reported by its line and column (in bytes) instead.
 */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  if (isUtf8(bytes)) return { kind: 'text', text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
  const at = firstInvalid(bytes);
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { kind: 'invalid', line, column: at - lineStart + 1 };
}

/** Offset of the first byte that starts no valid UTF-8 sequence (RFC 3629: no overlongs, surrogates or past U+10FFFF). */
function firstInvalid(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    const second = bytes[i + 1] ?? 0;
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (length > 1 && (second < low || second > high)) return i;
    for (let k = 2; k < length; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += length;
  }
  return bytes.length;
}
