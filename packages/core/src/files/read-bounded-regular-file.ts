import fs from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { errorCode } from '../config/toml-edit/error-code.js';

/** The most read from a project's MCP file (`.mcp.json`, `.agents/mcp_config.json`). */
export const PROJECT_FILE_MAX_BYTES = 1024 * 1024;

/**
 * The most read from settings.toml and Blitz's own state files (trust.json): some 80,000
 * server entries, far past any real file, and still a few milliseconds to read.
 */
export const SETTINGS_FILE_MAX_BYTES = 8 * 1024 * 1024;

/** Why a file was not read: it is no regular file, it is too large, or the OS refused it. */
export type FileRefusal = 'NOT_REGULAR' | 'TOO_LARGE' | 'UNREADABLE';

export type FileRead =
  | { readonly kind: 'read'; readonly bytes: Buffer }
  | { readonly kind: 'missing' }
  /** `message` says what the file is and why it was not read, without its path (the caller names it). */
  | { readonly kind: 'refused'; readonly refusal: FileRefusal; readonly message: string };

export interface ReadBounds {
  readonly maxBytes: number;
}

// Non-blocking, so a FIFO swapped in after the first look cannot hold the open; no terminal
// may become ours. Windows has neither flag (and no FIFOs in the file system).
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);

/**
 * Reads a file a user or a project controls, safely: only a regular file (after following
 * links), opened non-blocking, and at most `maxBytes`. A FIFO, a device (a link to
 * `/dev/zero`), a directory or a huge file is refused with a reason, never read, so nothing
 * in such a file can block or exhaust the process. Missing (or under a non-directory) is
 * `missing`. Every Blitz read of such files goes through here or its synchronous twin.
 */
export async function readBoundedRegularFile(file: string, bounds: ReadBounds): Promise<FileRead> {
  let first: fs.Stats;
  try {
    // Looked at before it is opened: opening a device or a FIFO may itself have effects.
    first = await stat(file);
  } catch (err) {
    return failed(err);
  }
  const early = refusalOf(first, bounds);
  if (early) return early;
  let handle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (err) {
    return failed(err);
  }
  try {
    const opened = await handle.stat();
    const late = refusalOf(opened, bounds);
    if (late) return late;
    let buffer: Buffer = Buffer.alloc(Math.min(opened.size, bounds.maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) {
        if (length > bounds.maxBytes) break;
        buffer = grown(buffer, bounds);
      }
    }
    return readResult(buffer, length, bounds);
  } catch (err) {
    return failed(err);
  } finally {
    await handle.close();
  }
}

/** `readBoundedRegularFile` for callers that must stay synchronous; it is bounded the same way. */
export function readBoundedRegularFileSync(file: string, bounds: ReadBounds): FileRead {
  let first: fs.Stats;
  try {
    first = fs.statSync(file);
  } catch (err) {
    return failed(err);
  }
  const early = refusalOf(first, bounds);
  if (early) return early;
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch (err) {
    return failed(err);
  }
  try {
    const opened = fs.fstatSync(fd);
    const late = refusalOf(opened, bounds);
    if (late) return late;
    let buffer: Buffer = Buffer.alloc(Math.min(opened.size, bounds.maxBytes) + 1);
    let length = 0;
    for (;;) {
      const bytesRead = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) {
        if (length > bounds.maxBytes) break;
        buffer = grown(buffer, bounds);
      }
    }
    return readResult(buffer, length, bounds);
  } catch (err) {
    return failed(err);
  } finally {
    fs.closeSync(fd);
  }
}

function refusalOf(stats: fs.Stats, bounds: ReadBounds): FileRead | undefined {
  if (!stats.isFile()) {
    return { kind: 'refused', refusal: 'NOT_REGULAR', message: `is ${describeType(stats)}, not a regular file (after following links); Blitz reads only regular files` };
  }
  if (stats.size > bounds.maxBytes) return tooLarge(formatSize(stats.size), bounds);
  return undefined;
}

/**
 * The buffer starts one byte larger than the file's size at its stat: filled up, the file
 * has grown since, and reading goes on into a larger one — up to one byte past the bound.
 */
function grown(buffer: Buffer, bounds: ReadBounds): Buffer {
  const next = Buffer.alloc(Math.min(buffer.length * 2, bounds.maxBytes + 1));
  buffer.copy(next);
  return next;
}

function readResult(buffer: Buffer, length: number, bounds: ReadBounds): FileRead {
  if (length > bounds.maxBytes) return tooLarge(`over ${formatSize(bounds.maxBytes)}`, bounds);
  return { kind: 'read', bytes: buffer.subarray(0, length) };
}

function tooLarge(size: string, bounds: ReadBounds): FileRead {
  return { kind: 'refused', refusal: 'TOO_LARGE', message: `is ${size}, more than the ${formatSize(bounds.maxBytes)} Blitz reads from such a file; it was not read` };
}

function failed(err: unknown): FileRead {
  const code = errorCode(err);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  if (code === 'EISDIR') return { kind: 'refused', refusal: 'NOT_REGULAR', message: 'is a directory, not a regular file; Blitz reads only regular files' };
  const reason = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ELOOP' ? 'too many symbolic links' : (err as Error).message;
  return { kind: 'refused', refusal: 'UNREADABLE', message: `cannot be read: ${reason}${code ? ` (${code})` : ''}` };
}

function describeType(stats: fs.Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}
