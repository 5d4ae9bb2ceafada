import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What a watched path is at one moment; two snapshots with the same `content` mean no change. */
export interface FileSnapshot {
  /** Cheap identity from `stat`: inode, size and times; `missing` when there is no file. */
  stat: string;
  /** A hash of the bytes; `missing`, or `error:CODE` when the file cannot be read. */
  content: string;
  /** Where a symlink points (its final target), so that file's folder can be watched too. */
  target: string | undefined;
}

/**
 * Reads a file whole. The files watched are small settings files, and synchronous reads
 * keep each check atomic with respect to the others: checks run in the order their
 * timers fire, which is what makes the watcher's behaviour predictable.
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
  try {
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch (error) {
    return failureKey(error);
  }
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
