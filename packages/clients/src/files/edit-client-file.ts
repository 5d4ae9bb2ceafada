import { BlitzError, firstDifference, writeTextAtomic } from '@blitz/core';
import { readClientFile } from './read-client-file.js';

/** What one edit of a client's file does: the new text and the parsed content it must have. */
export interface ClientEdit {
  readonly after: string;
  readonly intended: Record<string, unknown>;
}

export interface EditClientFileOptions {
  /** Parses text the way the client does; throws (with the line) when it does not parse. */
  readonly parse: (text: string) => Record<string, unknown>;
  /** Called with the original text before the first write, so it can be kept. */
  readonly beforeFirstWrite?: (original: string | undefined) => Promise<void>;
  /** Tests use this to write the file from another process between read and write. */
  readonly beforeWrite?: () => Promise<void> | void;
  /** How many times to start again when the file changes under us (default 5). */
  readonly attempts?: number;
  /** Past this the file is not read (default `MAX_CLIENT_FILE_BYTES`). */
  readonly maxBytes?: number;
}

export type EditOutcome =
  | { readonly changed: false; readonly text: string }
  | { readonly changed: true; readonly before: string | undefined; readonly text: string };

/**
 * Edits a client's file safely: reads it (refusing what does not parse), computes the edit,
 * checks that the new text parses to exactly the intended content, then writes it atomically
 * (mode and symlink kept). Clients hold no lock Blitz could take, so a change made by someone
 * else between the read and the write is caught by reading again just before renaming:
 * then everything starts over from the new text, and after a few tries the edit is refused.
 */
export async function editClientFile(
  file: string,
  edit: (text: string, exists: boolean) => ClientEdit | undefined,
  options: EditClientFileOptions,
): Promise<EditOutcome> {
  const attempts = options.attempts ?? 5;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const read = await readClientFile(file, options.maxBytes);
    const before = read.exists ? read.text : '';
    options.parse(before);
    const change = edit(before, read.exists);
    if (change === undefined || change.after === before) return { changed: false, text: before };
    verify(file, change, options.parse);
    await options.beforeFirstWrite?.(read.exists ? before : undefined);
    await options.beforeWrite?.();
    const now = await readClientFile(file, options.maxBytes);
    if (now.exists !== read.exists || (now.exists && now.text !== before)) continue;
    await writeTextAtomic(file, change.after);
    return { changed: true, before: read.exists ? before : undefined, text: change.after };
  }
  throw new BlitzError(
    'FAILED_PRECONDITION',
    `${file} kept changing while Blitz was editing it (another program is writing it); nothing was written — try again, or close that program first`,
    {
      reason: 'CLIENT_CONFIG_BUSY',
    },
  );
}

function verify(file: string, change: ClientEdit, parse: (text: string) => Record<string, unknown>): void {
  let actual: Record<string, unknown>;
  try {
    actual = parse(change.after);
  } catch (err) {
    throw mismatch(file, `the edited text would not parse (${(err as Error).message})`);
  }
  const diff = firstDifference(change.intended, actual);
  if (diff !== undefined)
    throw mismatch(file, `the edited text would not hold the intended content (${diff.replace(/: expected .*/, '')})`);
}

function mismatch(file: string, why: string): BlitzError {
  return new BlitzError('INTERNAL', `refusing to write ${file}: ${why}; the file was left unchanged — please report this`, {
    reason: 'CLIENT_EDIT_MISMATCH',
  });
}
