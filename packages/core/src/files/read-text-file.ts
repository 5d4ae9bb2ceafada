import { decodeUtf8 } from './decode-utf8.js';
import {
  readBoundedRegularFile,
  readBoundedRegularFileSync,
  type FileRead,
  type FileRefusal,
  type ReadBounds,
} from './read-bounded-regular-file.js';

export type TextRead =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'missing' }
  /** `message` leaves out the path, as in `FileRead`; `line` is set for bad UTF-8. */
  | { readonly kind: 'refused'; readonly refusal: FileRefusal | 'INVALID_UTF8'; readonly message: string; readonly line?: number };

/** A bounded regular file (see `readBoundedRegularFile`) as UTF-8 text; bad UTF-8 is refused with its line. */
export async function readTextFile(file: string, bounds: ReadBounds): Promise<TextRead> {
  return textOf(await readBoundedRegularFile(file, bounds));
}

export function readTextFileSync(file: string, bounds: ReadBounds): TextRead {
  return textOf(readBoundedRegularFileSync(file, bounds));
}

/** A bounded read (`readBoundedRegularFile`) as UTF-8 text: for a caller that needs the bytes too (to hash exactly what it parses). */
export function textOf(read: FileRead): TextRead {
  if (read.kind !== 'read') return read;
  const decoded = decodeUtf8(read.bytes);
  if (decoded.kind === 'text') return decoded;
  return {
    kind: 'refused',
    refusal: 'INVALID_UTF8',
    line: decoded.line,
    message: `is not valid UTF-8 (line ${decoded.line}, column ${decoded.column}); save it as UTF-8`,
  };
}
