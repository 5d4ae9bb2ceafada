import { BlitzError } from '@blitz/core';
import {
  applyEdits,
  createScanner,
  findNodeAtLocation,
  format,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  SyntaxKind,
  type Edit,
  type FormattingOptions,
  type ParseError,
} from 'jsonc-parser';

/**
 * JSON with comments, edited in place with jsonc-parser: only the bytes of the changed
 * value move; comments, key order, indentation and every other key stay.
 */

/**
 * Deeper than this a client's file is refused before it is parsed: jsonc-parser (and every walk
 * after it) recurses once a level, and 5,000 levels overflow the stack. Real configs nest a
 * dozen; the hub allows client messages 64 too.
 */
export const MAX_CLIENT_FILE_DEPTH = 64;

export function parseJsonText(text: string, file: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  // A byte-order mark (Windows editors write one) is not JSON; it stays in the file, edits keep it.
  const body = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  const deep = tooDeepAt(body);
  if (deep !== undefined) {
    const { line, column } = position(text, deep);
    throw new BlitzError(
      'FAILED_PRECONDITION',
      `${file} nests objects and arrays deeper than ${MAX_CLIENT_FILE_DEPTH} levels (line ${line}, column ${column}); it was not read — nothing was changed`,
      {
        reason: 'CLIENT_CONFIG_INVALID',
      },
    );
  }
  const data: unknown = parse(body, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  const first = errors[0];
  if (first !== undefined) {
    const { line, column } = position(text, first.offset);
    throw new BlitzError(
      'FAILED_PRECONDITION',
      `${file} is not valid JSON (line ${line}, column ${column}: ${describe(printParseErrorCode(first.error))}); fix it by hand, then try again — nothing was changed`,
      {
        reason: 'CLIENT_CONFIG_INVALID',
      },
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new BlitzError('FAILED_PRECONDITION', `${file} does not hold a JSON object at the top; nothing was changed`, {
      reason: 'CLIENT_CONFIG_INVALID',
    });
  }
  return data as Record<string, unknown>;
}

/** Sets (or, with `undefined`, removes) the value at `path`, formatted like the rest of the file. */
export function setJsonValue(text: string, path: readonly string[], value: unknown): string {
  if (value === undefined) return removeJsonProperty(text, path);
  // jsonc-parser formats whole lines around an edit: in a file on one line (a minified
  // claude_desktop_config.json) that is the whole file, so there the value goes in compact instead.
  const oneLine = text.trim() !== '' && !text.trim().includes('\n');
  const edits = modify(text, [...path], value, {});
  if (oneLine) return applyEdits(text, edits);
  const [edit] = edits;
  // A new file is written whole, formatted.
  if (text.trim() === '' || edit === undefined || edits.length > 1)
    return applyEdits(text, modify(text, [...path], value, { formattingOptions: formatting(text) }));
  const placed = afterLineComment(text, edit);
  return formattedEdit(placed.text, placed.edit);
}

/**
 * A property added after a sibling whose line ends in a `// comment`: the comma stays after the
 * sibling and the property goes after the comment, which is the sibling's, not the new one's.
 */
function afterLineComment(text: string, edit: Edit): { text: string; edit: Edit } {
  if (edit.length !== 0 || !edit.content.startsWith(',')) return { text, edit };
  const comment = /^[ \t]*\/\/[^\r\n]*/.exec(text.slice(edit.offset));
  if (!comment) return { text, edit };
  return {
    text: `${text.slice(0, edit.offset)},${text.slice(edit.offset)}`,
    // On a line of its own: after a `//` comment, the rest of the line is the comment.
    edit: {
      offset: edit.offset + 1 + comment[0].length,
      length: 0,
      content: `${/\r\n/.test(text) ? '\r\n' : '\n'}${edit.content.slice(1)}`,
    },
  };
}

/**
 * Applies one edit and formats what it wrote and the blanks on either side, nothing more.
 * jsonc-parser's own formatting of an insertion takes in the whole line it starts on, so a
 * sibling written on one line (`"memory": { "command": … }`) would be spread over several.
 */
function formattedEdit(text: string, edit: Edit): string {
  const after = applyEdits(text, [edit]);
  // One character either side (a \r\n whole), so the blanks between the new text and its
  // neighbours count as inside the range, and no edit within a neighbour does.
  const before = edit.offset - (after.startsWith('\r\n', edit.offset - 2) ? 2 : 1);
  const offset = Math.max(0, before);
  const contentEnd = edit.offset + edit.content.length;
  const end = Math.min(after.length, contentEnd + (after.startsWith('\r\n', contentEnd) ? 2 : 1));
  return applyEdits(after, format(after, { offset, length: end - offset }, { ...formatting(text), keepLines: false }));
}

/**
 * Removes one property with its comma and the comment lines right above it, and nothing
 * else: jsonc-parser's own removal also takes the comments between it and the next
 * property, which belong to that one.
 */
function removeJsonProperty(text: string, path: readonly string[]): string {
  const value = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, [...path]);
  const property = value?.parent;
  if (property === undefined || property.type !== 'property') return text;
  const siblings = property.parent!.children!;
  const index = siblings.indexOf(property);
  let to = property.offset + property.length;
  const comma = skipBlank(text, to);
  // The last property: the comma before it goes instead — that comma alone, not the previous one's `// comment`.
  let previousComma: number | undefined;
  if (text[comma] === ',') to = comma + 1;
  else if (index > 0) {
    const previous = siblings[index - 1]!;
    previousComma = text.indexOf(',', previous.offset + previous.length);
  }
  let from = attachedCommentsStart(text, property.offset);
  // On the comma's own line (`{"a": 1, "b": 2}`) the comma and the blank after it go with the property.
  if (previousComma !== undefined && /^[ \t]*$/.test(text.slice(previousComma + 1, from))) {
    from = previousComma;
    previousComma = undefined;
  }
  // A `// comment` after it on its line is its own (issue 26.9): it goes too, not left to a neighbour.
  const trailing = /^[ \t]*\/\/[^\r\n]*/.exec(text.slice(to));
  if (trailing) to += trailing[0].length;
  // Whole lines go with it, so no blank line is left where it was.
  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  const lineEnd = text.indexOf('\n', to);
  if (/^[ \t]*$/.test(text.slice(lineStart, from)) && lineEnd !== -1 && /^[ \t\r]*$/.test(text.slice(to, lineEnd))) {
    from = lineStart;
    to = lineEnd + 1;
  }
  const out = text.slice(0, from) + text.slice(to);
  return previousComma === undefined ? out : out.slice(0, previousComma) + out.slice(previousComma + 1);
}

function skipBlank(text: string, at: number): number {
  while (at < text.length && /[ \t\r\n]/.test(text[at]!)) at++;
  return at;
}

/** The start of the `//` comment lines directly above offset `at` (no blank line between). */
function attachedCommentsStart(text: string, at: number): number {
  let start = at;
  for (;;) {
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    if (!/^[ \t]*$/.test(text.slice(lineStart, start))) return start;
    if (lineStart === 0) return start;
    const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    const prev = text.slice(prevStart, lineStart - 1);
    if (!/^[ \t]*\/\//.test(prev)) return start;
    start = prevStart + prev.search(/\S/);
  }
}

/** The file's own indentation and line ending, so new lines look like the old ones. */
function formatting(text: string): FormattingOptions {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const indents = [...text.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]!);
  if (indents.some((i) => i.startsWith('\t'))) return { insertSpaces: false, tabSize: 1, eol };
  const widths = indents.map((i) => i.length).filter((n) => n > 0);
  return { insertSpaces: true, tabSize: widths.length > 0 ? Math.min(...widths) : 2, eol };
}

/** Where the text first opens a level past the limit, by its tokens (no recursion); undefined if it never does. */
function tooDeepAt(text: string): number | undefined {
  const scanner = createScanner(text, false);
  let depth = 0;
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    if (token === SyntaxKind.OpenBraceToken || token === SyntaxKind.OpenBracketToken) {
      if (++depth > MAX_CLIENT_FILE_DEPTH) return scanner.getTokenOffset();
    } else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) depth--;
  }
  return undefined;
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function describe(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
