import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readBoundedRegularFileSync, SETTINGS_FILE_MAX_BYTES } from '@blitz/core';

/** What a watched path is at one moment; two snapshots with the same `content` mean no change. */
export interface FileSnapshot {
  /** Cheap identity from `stat`: inode, size and times; `missing` when there is no file. */
  stat: string;
  /** A hash of the bytes; `missing`, `refused:WHY` for what is not read (not a regular file, too large, unreadable). */
  content: string;
  /** Where a symlink points (its final target), so that file's folder can be watched too. */
  target: string | undefined;
}

/**
 * Reads a file whole, through the bounded reader: a watched project file may be a FIFO or a
 * link to /dev/zero, which must neither block nor fill the daemon. Synchronous reads (of at
 * most a few MB) keep each check atomic with respect to the others: checks run in the order
 * their timers fire, which is what makes the watcher's behaviour predictable.
 */
export function snapshot(file: string): FileSnapshot {
  // Stat before reading: if the file changes in between, the stat is the older one and
  // the next poll looks again, rather than a new stat hiding an old hash.
  const stat = statKey(file);
  return { stat, content: contentKey(file), target: linkTarget(file) };
}

/** `stat` follows symlinks, so re-pointing a link changes the key as well. */
export function statKey(file: string): string {
  try {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    return stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` : 'missing';
  } catch (error) {
    return failureKey(error);
  }
}

function contentKey(file: string): string {
  const read = readBoundedRegularFileSync(file, { maxBytes: SETTINGS_FILE_MAX_BYTES });
  switch (read.kind) {
    case 'read':
      return bytesKey(read.bytes);
    case 'missing':
      return 'missing';
    case 'refused':
      return `refused:${read.refusal}:${read.message}`;
    default: {
      const _exhaustive: never = read;
      return _exhaustive;
    }
  }
}

/** The `content` of a file holding `text` as UTF-8, as a snapshot of it would say. */
export function textKey(text: string): string {
  return bytesKey(Buffer.from(text, 'utf8'));
}

function bytesKey(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The final target of a symlink (a dangling one included); undefined for anything else. */
function linkTarget(file: string): string | undefined {
  try {
    if (!fs.lstatSync(file).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  try {
    return fs.realpathSync(file);
  } catch {
    // Dangling: realpath fails, but the folder the link names is where the target will appear.
    try {
      return path.resolve(path.dirname(file), fs.readlinkSync(file));
    } catch {
      return undefined;
    }
  }
}

function failureKey(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : `error:${code ?? 'UNKNOWN'}`;
}
