import { randomUUID } from 'node:crypto';
import { link, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { BlitzError } from '../../errors/blitz-error.js';
import { errorCode } from './error-code.js';

export interface LockOptions {
  /** Give up after this long (default 10 s). */
  readonly timeoutMs?: number;
  /** A lock older than this is taken to be left behind, even if its pid is alive (default 30 s). */
  readonly staleMs?: number;
}

interface LockOwner {
  pid: number;
  token: string;
}

/**
 * Runs `fn` holding an exclusive lock: the file `lockPath`, created with O_EXCL by whoever
 * holds it. Waiters retry with a short, growing backoff. A lock whose process is gone, or
 * that is older than `staleMs`, was left by a crash and is broken.
 */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const token = await acquire(lockPath, options.timeoutMs ?? 10_000, options.staleMs ?? 30_000);
  try {
    return await fn();
  } finally {
    await release(lockPath, token);
  }
}

async function acquire(lockPath: string, timeoutMs: number, staleMs: number): Promise<string> {
  const owner: LockOwner = { pid: process.pid, token: randomUUID() };
  const deadline = Date.now() + timeoutMs;
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(JSON.stringify(owner));
      } finally {
        await handle.close();
      }
      return owner.token;
    } catch (err) {
      if (errorCode(err) !== 'EEXIST') throw err;
    }
    if (await breakIfStale(lockPath, staleMs)) continue;
    if (Date.now() >= deadline) {
      const holder = await readOwner(lockPath);
      const by = holder === undefined ? '' : ` by process ${holder.pid}`;
      throw new BlitzError('TIMEOUT', `could not lock ${lockPath}: held${by} for over ${timeoutMs} ms; if no Blitz command is running, delete that file`, {
        reason: 'SETTINGS_LOCKED',
      });
    }
    // Jitter keeps a crowd of waiters from retrying in step.
    await sleep(delay / 2 + Math.random() * delay);
  }
}

/** Breaks the lock if it was left behind; true when the caller should retry at once. */
async function breakIfStale(lockPath: string, staleMs: number): Promise<boolean> {
  let seen;
  try {
    seen = await stat(lockPath);
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return true;
    throw err;
  }
  const owner = await readOwner(lockPath);
  const old = Date.now() - seen.mtimeMs > staleMs;
  // Without a readable owner the lock may be a moment old and not yet written: only age can break it.
  const dead = owner !== undefined && !isAlive(owner.pid);
  if (!old && !dead) return false;

  // Move it aside rather than delete it, so two waiters breaking the same stale lock cannot
  // delete the fresh lock one of them has just taken.
  const aside = `${lockPath}.stale-${process.pid}-${randomUUID()}`;
  try {
    await rename(lockPath, aside);
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return true;
    throw err;
  }
  const moved = await stat(aside);
  if (moved.ino !== seen.ino || moved.mtimeMs !== seen.mtimeMs) {
    // We moved a live lock taken since we looked: put it back unless yet another lock exists.
    await link(aside, lockPath).catch(() => undefined);
  }
  await rm(aside, { force: true });
  return true;
}

async function release(lockPath: string, token: string): Promise<void> {
  // Only our own lock: if ours was broken as stale, the file now belongs to someone else.
  const owner = await readOwner(lockPath);
  if (owner?.token === token) await rm(lockPath, { force: true });
}

async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(lockPath, 'utf8'));
    const { pid, token } = parsed as Partial<LockOwner>;
    return typeof pid === 'number' && typeof token === 'string' ? { pid, token } : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(err) === 'EPERM';
  }
}
