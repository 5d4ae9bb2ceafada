import { randomUUID } from 'node:crypto';
import { link, open, rm, stat } from 'node:fs/promises';
import { systemClock, type Clock } from '@blitz/clock';
import { isProcessAlive, processStart } from '@blitz/process';
import { BlitzError } from '../../errors/blitz-error.js';
import { errorCode } from '../../files/error-code.js';

export interface LockOptions {
  /** Give up after this long (default 10 s). */
  readonly timeoutMs?: number;
  /**
   * Where a process's start time cannot be read (no `/proc`), a lock older than this is taken
   * to be left behind even if its pid runs, since the pid may have been reused (default 30 s).
   */
  readonly staleMs?: number;
  /** What waits between tries and tells the deadline and a lock's age (default the system clock). */
  readonly clock?: Clock;
}

interface LockOwner {
  pid: number;
  /** Kernel start time of the owner (Linux), so a reused pid is not taken for the owner. */
  start?: string;
  /** Unique to one holding: release and takeover act only on the holding they judged. */
  token: string;
}

/** The lock file as read through one open handle: its inode and its owner, if readable. */
export interface Held {
  ino: number;
  mtimeMs: number;
  owner: LockOwner | undefined;
}

/** A takeover claim left by a process killed mid-takeover is given up after this long. */
const CLAIM_STALE_MS = 5_000;

/**
 * Runs `fn` holding an exclusive lock: the file `lockPath`, naming its owner (pid, start
 * time, token). The file is written whole before it appears (a temporary file hard-linked
 * into place), so an empty or unreadable lock file is never a live one. Waiters retry with
 * a short, growing backoff. A lock whose owner is gone — dead, its pid reused, or empty —
 * is taken over at once.
 */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const token = await acquire(lockPath, options.timeoutMs ?? 10_000, options.staleMs ?? 30_000, options.clock ?? systemClock);
  try {
    return await fn();
  } finally {
    await release(lockPath, token);
  }
}

async function acquire(lockPath: string, timeoutMs: number, staleMs: number, clock: Clock): Promise<string> {
  const start = processStart(process.pid);
  const owner: LockOwner = { pid: process.pid, ...(start === undefined ? {} : { start }), token: randomUUID() };
  return tryUntil(lockPath, owner, clock.now() + timeoutMs, timeoutMs, staleMs, clock);
}

async function tryUntil(
  lockPath: string,
  owner: LockOwner,
  deadline: number,
  timeoutMs: number,
  staleMs: number,
  clock: Clock,
): Promise<string> {
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    if (await create(lockPath, owner)) return owner.token;
    const held = await readHeld(lockPath);
    if (held === undefined) continue;
    if (isGone(held, staleMs, clock) && (await takeOver(lockPath, held, clock))) continue;
    if (clock.now() >= deadline) {
      const by = held.owner === undefined ? '' : ` by process ${held.owner.pid}`;
      throw new BlitzError(
        'TIMEOUT',
        `could not lock ${lockPath}: held${by} for over ${timeoutMs} ms; if no Blitz command is running, delete that file`,
        {
          reason: 'SETTINGS_LOCKED',
        },
      );
    }
    // Jitter keeps a crowd of waiters from retrying in step.
    // A ref'd timer: a CLI command waiting here must not exit (status 0, nothing done) mid-wait.
    await new Promise<void>((resolve) => clock.setTimeout(resolve, delay / 2 + Math.random() * delay, { ref: true }));
  }
}

/** Writes the owner to a file of its own, then links it to `lockPath`, which fails if a lock exists. */
async function create(lockPath: string, owner: LockOwner): Promise<boolean> {
  const temp = `${lockPath}.${owner.token}.tmp`;
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(JSON.stringify(owner));
  } catch (err) {
    // A full disk creates the file but takes no byte: it must not stay behind.
    await handle.close();
    await rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await link(temp, lockPath);
    return true;
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return false;
    throw err;
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * Removes the lock judged left behind, and only that one — never a fresh lock taken since
 * (an owner that released and exited looks dead to whoever read it a moment before). The
 * taker claims the judged holding (`<lock>.take-<token>`, exclusive), then checks under the
 * claim that the path still holds that very file; nobody else can remove it meanwhile, as
 * its owner is gone and other takers wait for the claim. False when another taker is at it.
 */
export async function takeOver(lockPath: string, judged: Held, clock: Clock = systemClock): Promise<boolean> {
  const claim = `${lockPath}.take-${judged.owner?.token ?? `ino${judged.ino}`}`;
  try {
    await (await open(claim, 'wx', 0o600)).close();
  } catch (err) {
    if (errorCode(err) !== 'EEXIST') throw err;
    // Another taker is at it, or one was killed mid-takeover and left its claim.
    const since = await stat(claim).then(
      (s) => clock.now() - s.mtimeMs,
      () => 0,
    );
    if (since > CLAIM_STALE_MS) await rm(claim, { force: true });
    return false;
  }
  try {
    const now = await readHeld(lockPath);
    if (now !== undefined && now.ino === judged.ino && now.owner?.token === judged.owner?.token) await rm(lockPath, { force: true });
  } finally {
    await rm(claim, { force: true });
  }
  return true;
}

function isGone(held: Held, staleMs: number, clock: Clock): boolean {
  const { owner } = held;
  if (owner === undefined) return true;
  if (!isProcessAlive(owner.pid)) return true;
  const start = processStart(owner.pid);
  if (owner.start !== undefined && start !== undefined) return owner.start !== start;
  return clock.now() - held.mtimeMs > staleMs;
}

async function release(lockPath: string, token: string): Promise<void> {
  // Only our own: if ours was taken over, the file now belongs to someone else.
  if ((await readHeld(lockPath))?.owner?.token === token) await rm(lockPath, { force: true });
}

/** The lock as it is now, or undefined when there is none. */
export async function readHeld(lockPath: string): Promise<Held | undefined> {
  let handle;
  try {
    handle = await open(lockPath, 'r');
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const { ino, mtimeMs, size } = await handle.stat();
    // An owner is a few dozen bytes; anything much larger was not written by us.
    const text = size <= 4096 ? await handle.readFile('utf8') : '';
    return { ino, mtimeMs, owner: parseOwner(text) };
  } finally {
    await handle.close();
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const { pid, start, token } = JSON.parse(text) as Partial<LockOwner>;
    if (typeof pid !== 'number' || typeof token !== 'string') return undefined;
    return { pid, ...(typeof start === 'string' ? { start } : {}), token };
  } catch {
    return undefined;
  }
}
