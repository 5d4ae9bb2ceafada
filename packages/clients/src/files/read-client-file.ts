import { stat } from 'node:fs/promises';
import { BlitzError, readTextFile, SETTINGS_FILE_MAX_BYTES } from '@blitz/core';

/** Past this a client's config is not something Blitz reads: the bound of Blitz's own settings.toml. */
export const MAX_CLIENT_FILE_BYTES = SETTINGS_FILE_MAX_BYTES;

export type ClientFileText = { readonly exists: false } | { readonly exists: true; readonly text: string };

/**
 * Reads a client's config file through core's reader of user-controlled files: a regular
 * file after links, opened non-blocking, bounded, valid UTF-8. A missing file is
 * `exists: false`; every refusal names the file and changes nothing.
 */
export async function readClientFile(file: string, maxBytes: number = MAX_CLIENT_FILE_BYTES): Promise<ClientFileText> {
  const read = await readTextFile(file, { maxBytes });
  switch (read.kind) {
    case 'text':
      return { exists: true, text: read.text };
    case 'missing':
      return { exists: false };
    case 'refused':
      throw new BlitzError('FAILED_PRECONDITION', `${file} ${read.message}; nothing was changed`, { reason: 'CLIENT_CONFIG_UNREADABLE' });
    default: {
      const never: never = read;
      throw new Error(`unexpected read ${JSON.stringify(never)}`);
    }
  }
}

/** Whether a folder exists (a client's marker that it is installed). */
export async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
