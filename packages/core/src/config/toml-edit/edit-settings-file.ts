import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { BlitzError } from '../../errors/blitz-error.js';
import { firstDifference } from './first-difference.js';
import { describeTomlError, parseToml, parseTomlText } from './parse-toml-text.js';
import { withFileLock, type LockOptions } from './settings-file-lock.js';
import { writeTextAtomic } from '../../files/write-text-atomic.js';
import { noSpaceError, readTextFile, SETTINGS_FILE_MAX_BYTES } from '../../files/index.js';

export interface EditSettingsOptions {
  readonly lock?: LockOptions;
  /** Told the text just before it is written: the daemon's watcher then takes the change for its own (issue 27.5). */
  readonly beforeWrite?: (text: string) => void;
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
  try {
    return await editLocked(file, edit, intended, options);
  } catch (err) {
    throw noSpaceError(err, file) ?? err;
  }
}

async function editLocked(
  file: string,
  edit: (text: string) => string,
  intended: (parsed: Record<string, unknown>) => Record<string, unknown>,
  options: EditSettingsOptions,
): Promise<EditSettingsResult> {
  // The lock file sits beside the settings file, so its directory must exist first.
  await mkdir(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  return withFileLock(
    `${file}.lock`,
    async () => {
      const before = await readSettingsText(file);
      const parsed = parseTomlText(before, file);
      // The edit first: it is what judges the file as found (and may plan what `intended` says).
      const after = edit(before);
      verify(file, after, intended(parsed));
      if (after === before) return { changed: false, text: before };
      options.beforeWrite?.(after);
      await writeTextAtomic(file, after);
      return { changed: true, text: after };
    },
    options.lock,
  );
}

/**
 * The settings text, or '' when the file does not exist yet. A file Blitz cannot read back
 * whole — no regular file, too large, unreadable, bad UTF-8 (an edit would turn those bytes
 * into U+FFFD) — is refused, naming the file and the line.
 */
export async function readSettingsText(file: string): Promise<string> {
  const read = await readTextFile(file, { maxBytes: SETTINGS_FILE_MAX_BYTES });
  if (read.kind === 'missing') return '';
  if (read.kind === 'text') return read.text;
  const where = read.line === undefined ? file : `${file}:${read.line}`;
  throw new BlitzError('FAILED_PRECONDITION', `${where}: ${read.message}; nothing was changed`, {
    reason: read.refusal === 'INVALID_UTF8' ? 'SETTINGS_INVALID_UTF8' : 'SETTINGS_UNREADABLE',
  });
}

function verify(file: string, after: string, expected: Record<string, unknown>): void {
  let actual: Record<string, unknown>;
  try {
    actual = parseToml(after);
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
