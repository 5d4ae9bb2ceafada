import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { BlitzError } from '@blitz/core';

/** Past this a client's config is not something Blitz edits (Claude Code's file holds history, so it is generous). */
export const MAX_CLIENT_FILE_BYTES = 64 * 1024 * 1024;

export type ClientFileText = { readonly exists: false } | { readonly exists: true; readonly text: string };

/**
 * Reads a client's config file: through symlinks, but only a regular file (a FIFO or device
 * could block or never end, so it is opened non-blocking and checked after opening), bounded
 * in size, and valid UTF-8. A missing file is `exists: false`. Every refusal names the file.
 *
 * TODO(hard-files): switch to core's safe reader of user-controlled files once it lands.
 */
export async function readClientFile(file: string): Promise<ClientFileText> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { exists: false };
    if (code === 'EISDIR') throw refusal(file, 'is a directory, not a file');
    if (code === 'EACCES' || code === 'EPERM') throw refusal(file, 'cannot be read (permission denied)');
    if (code === 'ELOOP') throw refusal(file, 'is a loop of symbolic links');
    throw refusal(file, `cannot be read (${code ?? (err as Error).message})`);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw refusal(file, 'is a directory, not a file');
    if (!info.isFile()) throw refusal(file, 'is not a regular file');
    if (info.size > MAX_CLIENT_FILE_BYTES) throw refusal(file, `is larger than ${MAX_CLIENT_FILE_BYTES / 1024 / 1024} MB`);
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
      if (length > MAX_CLIENT_FILE_BYTES) throw refusal(file, `is larger than ${MAX_CLIENT_FILE_BYTES / 1024 / 1024} MB`);
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Buffer.concat(chunks, length));
    } catch {
      throw refusal(file, 'is not valid UTF-8 text');
    }
    return { exists: true, text };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EISDIR') throw refusal(file, 'is a directory, not a file');
    throw err;
  } finally {
    await handle.close();
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

function refusal(file: string, why: string): BlitzError {
  return new BlitzError('FAILED_PRECONDITION', `${file} ${why}; nothing was changed`, { reason: 'CLIENT_CONFIG_UNREADABLE' });
}
