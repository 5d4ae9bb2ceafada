/**
 * Splits TOML text into logical lines: a key whose value spans several physical lines (a
 * multi-line string or array) is one line, so text inside it — even `[[mcp.servers]]` —
 * is never taken for a header. Offsets index `text`; nothing is copied or normalised.
 */

interface LineSpan {
  /** Offset of the line's first character. */
  readonly start: number;
  /** Offset just past the line terminator (or the end of the text on a last line without one). */
  readonly end: number;
  /** Whether the line ends with `\n` (false only for a last line without a terminator). */
  readonly terminated: boolean;
}

export type TomlLine =
  | (LineSpan & { readonly kind: 'blank' | 'comment' | 'other' })
  | (LineSpan & { readonly kind: 'table'; readonly array: boolean; readonly path: readonly string[] })
  | (LineSpan & {
      readonly kind: 'key-value';
      readonly path: readonly string[];
      readonly indent: string;
      readonly valueStart: number;
      readonly valueEnd: number;
    });

export type Eol = '\n' | '\r\n';

/** The file's line ending, taken from its first line; LF for a file without any. */
export function detectEol(text: string): Eol {
  const nl = text.indexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

export function scanLines(text: string): TomlLine[] {
  const lines: TomlLine[] = [];
  // A byte-order mark is not part of the first line's content.
  let pos = text.startsWith('\uFEFF') ? 1 : 0;
  while (pos < text.length) {
    const line = scanLine(text, pos);
    lines.push(pos === 1 && lines.length === 0 ? { ...line, start: 0 } : line);
    pos = line.end;
  }
  return lines;
}

function scanLine(text: string, start: number): TomlLine {
  const p = skipWhitespace(text, start);
  const ch = text[p];
  if (p >= text.length || ch === '\n' || (ch === '\r' && text[p + 1] === '\n')) return { kind: 'blank', ...lineEnd(text, start, p) };
  if (ch === '#') return { kind: 'comment', ...lineEnd(text, start, p) };
  if (ch === '[') {
    const array = text[p + 1] === '[';
    const key = readKey(text, p + (array ? 2 : 1));
    if (key !== undefined) {
      const close = array ? ']]' : ']';
      const q = skipWhitespace(text, key.end);
      if (text.startsWith(close, q)) return { kind: 'table', array, path: key.segments, ...lineEnd(text, start, q + close.length) };
    }
    return { kind: 'other', ...lineEnd(text, start, p) };
  }
  const key = readKey(text, p);
  if (key !== undefined) {
    const eq = skipWhitespace(text, key.end);
    if (text[eq] === '=') {
      const valueStart = skipWhitespace(text, eq + 1);
      const valueEnd = skipValue(text, valueStart);
      return {
        kind: 'key-value',
        path: key.segments,
        indent: text.slice(start, p),
        valueStart,
        valueEnd,
        ...lineEnd(text, start, valueEnd),
      };
    }
  }
  return { kind: 'other', ...lineEnd(text, start, p) };
}

/** The span from `start` to the end of the physical line holding `from`. */
function lineEnd(text: string, start: number, from: number): LineSpan {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? { start, end: text.length, terminated: false } : { start, end: nl + 1, terminated: true };
}

export function skipWhitespace(text: string, pos: number): number {
  while (text[pos] === ' ' || text[pos] === '\t') pos++;
  return pos;
}

/** Reads a dotted key (`a."b c".'d'`) at `pos`; undefined when no key starts there. */
export function readKey(text: string, pos: number): { segments: string[]; end: number } | undefined {
  const segments: string[] = [];
  for (;;) {
    const p = skipWhitespace(text, pos);
    const simple = readSimpleKey(text, p);
    if (simple === undefined) return undefined;
    segments.push(simple.key);
    pos = simple.end;
    const dot = skipWhitespace(text, pos);
    if (text[dot] !== '.') return { segments, end: pos };
    pos = dot + 1;
  }
}

function readSimpleKey(text: string, pos: number): { key: string; end: number } | undefined {
  const ch = text[pos];
  if (ch === '"' || ch === "'") {
    const end = skipString(text, pos);
    const raw = text.slice(pos + 1, end - 1);
    return { key: ch === '"' ? unescapeBasic(raw) : raw, end };
  }
  let end = pos;
  while (end < text.length && /[A-Za-z0-9_-]/.test(text[end]!)) end++;
  return end === pos ? undefined : { key: text.slice(pos, end), end };
}

const UNESCAPES: Readonly<Record<string, string>> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };

function unescapeBasic(raw: string): string {
  return raw.replace(
    /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|x([0-9A-Fa-f]{2})|(.))/g,
    (whole, u4?: string, u8?: string, x2?: string, c?: string) => {
      const hex = u4 ?? u8 ?? x2;
      if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16));
      return UNESCAPES[c ?? ''] ?? whole;
    },
  );
}

/** The offset just past the value starting at `pos`: a string, array, inline table or bare token. */
export function skipValue(text: string, pos: number): number {
  const ch = text[pos];
  if (ch === '"' || ch === "'") return skipString(text, pos);
  if (ch === '[' || ch === '{') return skipBracketed(text, pos);
  // Bare tokens (numbers, booleans, dates) end at a comment or the line's end; a date-time may hold a space.
  let end = pos;
  while (end < text.length && !'\n#,]}'.includes(text[end]!)) end++;
  while (end > pos && /[ \t\r]/.test(text[end - 1]!)) end--;
  return end;
}

/** The offset just past the string (basic, literal, or either multi-line form) starting at `pos`. */
export function skipString(text: string, pos: number): number {
  const quote = text[pos]!;
  const escapes = quote === '"';
  const triple = quote.repeat(3);
  if (text.startsWith(triple, pos)) {
    for (let i = pos + 3; i < text.length; i++) {
      if (escapes && text[i] === '\\') i++;
      else if (text.startsWith(triple, i)) {
        // Up to two more quotes right before the delimiter belong to the content (`"""a"""""`).
        let end = i + 3;
        for (let extra = 0; extra < 2 && text[end] === quote; extra++) end++;
        return end;
      }
    }
    return text.length;
  }
  for (let i = pos + 1; i < text.length && text[i] !== '\n'; i++) {
    if (escapes && text[i] === '\\') i++;
    else if (text[i] === quote) return i + 1;
  }
  return text.length;
}

function skipBracketed(text: string, pos: number): number {
  let depth = 0;
  let i = pos;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'") {
      i = skipString(text, i);
      continue;
    }
    if (ch === '#') {
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? text.length : nl;
      continue;
    }
    if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return text.length;
}
