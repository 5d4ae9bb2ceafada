import { parse, TomlError } from 'smol-toml';
import { BlitzError } from '../../errors/blitz-error.js';

/**
 * Parses settings text with smol-toml. Invalid TOML becomes a `FAILED_PRECONDITION` naming
 * the file, line and column: Blitz edits only files it can read back, so the user fixes it first.
 */
export function parseTomlText(text: string, file: string): Record<string, unknown> {
  try {
    return parseToml(text);
  } catch (err) {
    throw new BlitzError('FAILED_PRECONDITION', `${file} is not valid TOML (${describeTomlError(err)}); fix it by hand, then try again`, {
      reason: 'SETTINGS_INVALID_TOML',
      cause: err,
    });
  }
}

/** How many of the last texts parsed are kept, and how many characters they may hold together. */
const KEPT_TEXTS = 8;
const KEPT_CHARS = 16 * 1024 * 1024;

/** text → its table (frozen: every caller shares it) or the error parsing it threw; oldest first. */
const kept = new Map<string, { table: Record<string, unknown> } | { error: unknown }>();
let keptChars = 0;
let parses = 0;

/**
 * smol-toml's `parse`, once per text (issue 27.5): an edit judges the file as found, checks the
 * text it made, and the daemon applies what was written — each of them the same text, parsed
 * once. The table is deeply frozen, since all of them share it; invalid TOML throws the same
 * error each time.
 */
export function parseToml(text: string): Record<string, unknown> {
  let result = kept.get(text);
  if (result === undefined) {
    parses++;
    try {
      result = { table: deepFreeze(parse(text)) };
    } catch (error) {
      result = { error };
    }
    keep(text, result);
  } else {
    // The most recently used is kept longest.
    kept.delete(text);
    kept.set(text, result);
  }
  if ('error' in result) throw result.error;
  return result.table;
}

/** How many texts this process really parsed as TOML: tests count them (`parseToml` answers a text it knows without parsing). */
export function tomlParses(): number {
  return parses;
}

function keep(text: string, result: { table: Record<string, unknown> } | { error: unknown }): void {
  if (text.length > KEPT_CHARS) return;
  kept.set(text, result);
  keptChars += text.length;
  for (const old of kept.keys()) {
    if (kept.size <= KEPT_TEXTS && keptChars <= KEPT_CHARS) break;
    kept.delete(old);
    keptChars -= old.length;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/** `line 3, column 7: invalid value` from a smol-toml error (its message also holds a code excerpt). */
export function describeTomlError(err: unknown): string {
  if (err instanceof TomlError) {
    const message = err.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    return `line ${err.line}, column ${err.column}: ${message}`;
  }
  return err instanceof Error ? err.message : String(err);
}
