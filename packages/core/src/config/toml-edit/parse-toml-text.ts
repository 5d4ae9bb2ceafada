import { parse, TomlError } from 'smol-toml';
import { BlitzError } from '../../errors/blitz-error.js';

/**
 * Parses settings text with smol-toml. Invalid TOML becomes a `FAILED_PRECONDITION` naming
 * the file, line and column: Blitz edits only files it can read back, so the user fixes it first.
 */
export function parseTomlText(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text);
  } catch (err) {
    throw new BlitzError('FAILED_PRECONDITION', `${file} is not valid TOML (${describeTomlError(err)}); fix it by hand, then try again`, {
      reason: 'SETTINGS_INVALID_TOML',
      cause: err,
    });
  }
}

/** `line 3, column 7: invalid value` from a smol-toml error (its message also holds a code excerpt). */
export function describeTomlError(err: unknown): string {
  if (err instanceof TomlError) {
    const message = err.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    return `line ${err.line}, column ${err.column}: ${message}`;
  }
  return err instanceof Error ? err.message : String(err);
}
