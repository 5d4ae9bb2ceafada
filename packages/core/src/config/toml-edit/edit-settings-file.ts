import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'smol-toml';
import { BlitzError } from '../../errors/blitz-error.js';
import { errorCode } from './error-code.js';
import { firstDifference } from './first-difference.js';
import { describeTomlError, parseSettings } from './parse-settings.js';
import { withFileLock, type LockOptions } from './settings-file-lock.js';
import { writeTextAtomic } from '../write-text-atomic.js';

export interface EditSettingsOptions {
  readonly lock?: LockOptions;
}

export interface EditSettingsResult {
  /** False when the edit left the text as it was; nothing was written then. */
  readonly changed: boolean;
  readonly text: string;
}

/**
 * Edits a settings file safely. Under an exclusive lock (`<path>.lock`) it reads the file
 * (missing counts as empty), refuses a file that does not parse, applies the text `edit`,
 * and writes the result atomically only if it parses to exactly `intended(old settings)`.
 * The check is there because comment-keeping TOML edits are easy to get subtly wrong.
 */
export async function editSettingsFile(
  file: string,
  edit: (text: string) => string,
  intended: (parsed: Record<string, unknown>) => Record<string, unknown>,
  options: EditSettingsOptions = {},
): Promise<EditSettingsResult> {
  // The lock file sits beside the settings file, so its directory must exist first.
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  return withFileLock(
    `${file}.lock`,
    async () => {
      const before = await readSettingsText(file);
      const expected = intended(parseSettings(before, file));
      const after = edit(before);
      verify(file, after, expected);
      if (after === before) return { changed: false, text: before };
      await writeTextAtomic(file, after);
      return { changed: true, text: after };
    },
    options.lock,
  );
}

/** The settings text, or '' when the file does not exist yet. */
export async function readSettingsText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return '';
    throw err;
  }
}

function verify(file: string, after: string, expected: Record<string, unknown>): void {
  let actual: Record<string, unknown>;
  try {
    actual = parse(after);
  } catch (err) {
    throw refusal(file, `the edited text would not be valid TOML (${describeTomlError(err)})`, err);
  }
  const diff = firstDifference(expected, actual);
  if (diff !== undefined) throw refusal(file, `the edited text would not hold the intended settings (${diff})`);
}

function refusal(file: string, why: string, cause?: unknown): BlitzError {
  return new BlitzError('INTERNAL', `refusing to write ${file}: ${why}; the file was left unchanged — please report this`, {
    reason: 'SETTINGS_EDIT_MISMATCH',
    cause,
  });
}
