import fs from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { errorCode } from './error-code.js';

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
    const into = new BoundedBuffer(opened.size, bounds);
    while (into.took((await handle.read(into.buffer, into.length, into.room, null)).bytesRead));
    return into.result();
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
    const into = new BoundedBuffer(opened.size, bounds);
    while (into.took(fs.readSync(fd, into.buffer, into.length, into.room, null)));
    return into.result();
  } catch (err) {
    return failed(err);
  } finally {
    fs.closeSync(fd);
  }
}

function refusalOf(stats: fs.Stats, bounds: ReadBounds): FileRead | undefined {
  if (!stats.isFile()) {
    return {
      kind: 'refused',
      refusal: 'NOT_REGULAR',
      message: `is ${describeType(stats)}, not a regular file (after following links); Blitz reads only regular files`,
    };
  }
  if (stats.size > bounds.maxBytes) return tooLarge(formatSize(stats.size), bounds);
  return undefined;
}

/**
 * What has been read so far. It starts one byte larger than the file's size at its stat:
 * filled up, the file has grown since, and reading goes on into a larger buffer — up to one
 * byte past the bound, which is enough to know the file is too large.
 */
class BoundedBuffer {
  buffer: Buffer;
  length = 0;
  readonly #bounds: ReadBounds;

  constructor(size: number, bounds: ReadBounds) {
    this.buffer = Buffer.alloc(Math.min(size, bounds.maxBytes) + 1);
    this.#bounds = bounds;
  }

  get room(): number {
    return this.buffer.length - this.length;
  }

  /** Counts what a read brought; false when reading is over (end of file, or past the bound). */
  took(bytesRead: number): boolean {
    if (bytesRead === 0) return false;
    this.length += bytesRead;
    if (this.length < this.buffer.length) return true;
    if (this.length > this.#bounds.maxBytes) return false;
    const next = Buffer.alloc(Math.min(this.buffer.length * 2, this.#bounds.maxBytes + 1));
    this.buffer.copy(next);
    this.buffer = next;
    return true;
  }

  result(): FileRead {
    if (this.length > this.#bounds.maxBytes) return tooLarge(`over ${formatSize(this.#bounds.maxBytes)}`, this.#bounds);
    return { kind: 'read', bytes: this.buffer.subarray(0, this.length) };
  }
}

function tooLarge(size: string, bounds: ReadBounds): FileRead {
  return {
    kind: 'refused',
    refusal: 'TOO_LARGE',
    message: `is ${size}, more than the ${formatSize(bounds.maxBytes)} Blitz reads from such a file; it was not read`,
  };
}

function failed(err: unknown): FileRead {
  const code = errorCode(err);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  if (code === 'EISDIR')
    return { kind: 'refused', refusal: 'NOT_REGULAR', message: 'is a directory, not a regular file; Blitz reads only regular files' };
  const reason =
    code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ELOOP' ? 'too many symbolic links' : (err as Error).message;
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
