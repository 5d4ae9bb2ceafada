import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

// Reading the few fields `blitz connect` needs from a line's bytes, in place: no string is made
// of the line, only of the id or method found.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;

/** Whether `bytes` holds `ascii` at `at` (and before `end`). */
export function holdsAt(bytes: Buffer, at: number, end: number, ascii: Buffer): boolean {
  if (at < 0 || at + ascii.length > end) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[at + i] !== ascii[i]) return false;
  return true;
}

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;
/** A byte of a string written with nothing escaped: printable ASCII but `"` and `\`; a space too when `space`. */
const isPlain = (byte: number | undefined, space: boolean) =>
  byte !== undefined && byte >= (space ? 0x20 : 0x21) && byte <= 0x7e && byte !== QUOTE && byte !== BACKSLASH;

/** A value found in place: what it is, and where it ends (forward) or starts (backward). */
export interface Found<T> {
  value: T;
  at: number;
}

/** The id at `at`, an integer or an ASCII string with nothing escaped: its value and the offset just past it. */
export function idAt(bytes: Buffer, at: number, end: number): Found<RequestId> | undefined {
  if (bytes[at] === QUOTE) {
    const close = plainStringEnd(bytes, at + 1, end, true);
    return close === undefined ? undefined : { value: bytes.toString('latin1', at + 1, close), at: close + 1 };
  }
  let i = bytes[at] === MINUS ? at + 1 : at;
  if (!isDigit(bytes[i])) return undefined;
  while (i < end && isDigit(bytes[i])) i++;
  return { value: Number(bytes.toString('latin1', at, i)), at: i };
}

/** The id that ends just before `end`, as `idAt` reads it: its value and the offset where it starts. */
export function idBefore(bytes: Buffer, start: number, end: number): Found<RequestId> | undefined {
  let i = end - 1;
  if (bytes[i] === QUOTE) {
    i--;
    while (i > start && isPlain(bytes[i], true)) i--;
    return i > start && bytes[i] === QUOTE ? { value: bytes.toString('latin1', i + 1, end - 1), at: i } : undefined;
  }
  while (i >= start && isDigit(bytes[i])) i--;
  if (i === end - 1) return undefined;
  if (bytes[i] === MINUS) i--;
  return { value: Number(bytes.toString('latin1', i + 1, end)), at: i + 1 };
}

/** A method name at `at` (after its opening quote), printable ASCII with no space: its value and the offset of its closing quote. */
export function methodAt(bytes: Buffer, at: number, end: number): Found<string> | undefined {
  const close = plainStringEnd(bytes, at, end, false);
  return close === undefined || close === at ? undefined : { value: bytes.toString('latin1', at, close), at: close };
}

function plainStringEnd(bytes: Buffer, at: number, end: number, space: boolean): number | undefined {
  let i = at;
  while (i < end && isPlain(bytes[i], space)) i++;
  return i < end && bytes[i] === QUOTE ? i : undefined;
}
