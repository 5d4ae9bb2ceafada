import { BlitzError } from '@blitz/core';
import { applyEdits, modify, parse, printParseErrorCode, type FormattingOptions, type ParseError } from 'jsonc-parser';

/**
 * JSON with comments, edited in place with jsonc-parser: only the bytes of the changed
 * value move; comments, key order, indentation and every other key stay.
 */

export function parseJsonText(text: string, file: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  const first = errors[0];
  if (first !== undefined) {
    const { line, column } = position(text, first.offset);
    throw new BlitzError('FAILED_PRECONDITION', `${file} is not valid JSON (line ${line}, column ${column}: ${describe(printParseErrorCode(first.error))}); fix it by hand, then try again — nothing was changed`, {
      reason: 'CLIENT_CONFIG_INVALID',
    });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new BlitzError('FAILED_PRECONDITION', `${file} does not hold a JSON object at the top; nothing was changed`, { reason: 'CLIENT_CONFIG_INVALID' });
  }
  return data as Record<string, unknown>;
}

/** Sets (or, with `undefined`, removes) the value at `path`, formatted like the rest of the file. */
export function setJsonValue(text: string, path: readonly string[], value: unknown): string {
  const edits = modify(text, [...path], value, { formattingOptions: formatting(text) });
  return applyEdits(text, edits);
}

/** The file's own indentation and line ending, so new lines look like the old ones. */
function formatting(text: string): FormattingOptions {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const indents = [...text.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]!);
  if (indents.some((i) => i.startsWith('\t'))) return { insertSpaces: false, tabSize: 1, eol };
  const widths = indents.map((i) => i.length).filter((n) => n > 0);
  return { insertSpaces: true, tabSize: widths.length > 0 ? Math.min(...widths) : 2, eol };
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function describe(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
