import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processStart } from '@blitz/process';
import { BlitzError } from '../../errors/blitz-error.js';
import { readHeld, takeOver, withFileLock } from './settings-file-lock.js';

let dir: string;
let lock: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'blitz-lock-'));
  lock = path.join(dir, 'settings.toml.lock');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return child.pid!;
}

const holdBy = (pid: number, start?: string) => writeFile(lock, JSON.stringify({ pid, ...(start === undefined ? {} : { start }), token: 'someone-else' }));

describe('withFileLock', () => {
  it('holds the lock file while running and removes it after', async () => {
    const seen = await withFileLock(lock, async () => readdir(dir));
    expect(seen).toEqual(['settings.toml.lock']);
    expect(await readdir(dir)).toEqual([]);
  });

  it('removes the lock when the function throws', async () => {
    await expect(withFileLock(lock, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await readdir(dir)).toEqual([]);
  });

  it('runs holders one at a time', async () => {
    let inside = 0;
    let most = 0;
    const run = () =>
      withFileLock(lock, async () => {
        most = Math.max(most, ++inside);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inside--;
      });
    await Promise.all(Array.from({ length: 6 }, run));
    expect(most).toBe(1);
  });

  it('breaks a lock whose process is gone', async () => {
    await holdBy(deadPid());
    const started = Date.now();
    expect(await withFileLock(lock, async () => 'ran', { timeoutMs: 5_000 })).toBe('ran');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await readdir(dir)).toEqual([]);
  });

  it('breaks a lock older than the stale age when its start time is unknown', async () => {
    await holdBy(process.pid);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect(await withFileLock(lock, async () => 'ran', { timeoutMs: 5_000 })).toBe('ran');
  });

  it('takes over an empty lock file at once: a live lock is never empty', async () => {
    // What a process killed between creating and writing its lock used to leave.
    await writeFile(lock, '');
    const started = Date.now();
    expect(await withFileLock(lock, async () => 'ran', { timeoutMs: 5_000 })).toBe('ran');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await readdir(dir)).toEqual([]);
  });

  it.skipIf(processStart(process.pid) === undefined)('takes over a lock whose pid now runs another process (start times differ)', async () => {
    await holdBy(process.pid, 'not-the-start-of-this-process');
    expect(await withFileLock(lock, async () => 'ran', { timeoutMs: 5_000 })).toBe('ran');
  });

  it.skipIf(processStart(process.pid) === undefined)('waits for a lock whose owner lives, however old the lock', async () => {
    await holdBy(process.pid, processStart(process.pid));
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const err: unknown = await withFileLock(lock, async () => 'ran', { timeoutMs: 200 }).catch((e: unknown) => e);
    expect((err as BlitzError).reason).toBe('SETTINGS_LOCKED');
  });

  it('writes its owner whole before the lock appears, and leaves no temporary file', async () => {
    const owner = await withFileLock(lock, async () => JSON.parse(await readFile(lock, 'utf8')) as Record<string, unknown>);
    expect(owner).toMatchObject({ pid: process.pid, token: expect.any(String) });
    expect(await readdir(dir)).toEqual([]);
  });

  it('waits for a live lock to be released', async () => {
    await holdBy(process.pid);
    setTimeout(() => void rm(lock), 150);
    expect(await withFileLock(lock, async () => 'ran', { timeoutMs: 5_000 })).toBe('ran');
  });

  it('gives up on a live lock after the timeout, naming the holder', async () => {
    await holdBy(process.pid);
    const err: unknown = await withFileLock(lock, async () => 'ran', { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlitzError);
    expect((err as BlitzError).code).toBe('TIMEOUT');
    expect((err as BlitzError).reason).toBe('SETTINGS_LOCKED');
    expect((err as BlitzError).message).toContain(`${lock}: held by process ${process.pid}`);
    expect(await readdir(dir)).toEqual(['settings.toml.lock']);
  });

  it('leaves a lock alone at release once someone else holds it', async () => {
    await withFileLock(lock, async () => {
      await holdBy(process.pid);
    });
    expect(await readdir(dir)).toEqual(['settings.toml.lock']);
  });
});

describe('takeOver', () => {
  it('removes the lock it judged left behind', async () => {
    await holdBy(deadPid());
    expect(await takeOver(lock, (await readHeld(lock))!)).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves alone a lock taken since it was judged (an owner that released and exited looks dead a moment later)', async () => {
    await holdBy(deadPid());
    const judged = (await readHeld(lock))!;
    // The dead owner's lock goes, and a live process takes the lock before the taker acts.
    await rm(lock);
    await writeFile(lock, JSON.stringify({ pid: process.pid, token: 'live-holder' }));
    await takeOver(lock, judged);
    expect((await readHeld(lock))?.owner?.token).toBe('live-holder');
    expect(await readdir(dir)).toEqual(['settings.toml.lock']);
  });

  it('lets one taker act on a judged lock at a time, and gives up a claim a killed taker left', async () => {
    await holdBy(deadPid());
    const judged = (await readHeld(lock))!;
    const claim = `${lock}.take-${judged.owner!.token}`;
    await writeFile(claim, '');
    expect(await takeOver(lock, judged)).toBe(false);
    expect((await readHeld(lock))?.owner?.token).toBe('someone-else');
    const old = new Date(Date.now() - 60_000);
    await utimes(claim, old, old);
    expect(await takeOver(lock, judged)).toBe(false);
    expect(await takeOver(lock, judged)).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });
});
