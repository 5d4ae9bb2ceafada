import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlitzError } from '../../errors/blitz-error.js';
import { withFileLock } from './settings-file-lock.js';

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

const holdBy = (pid: number) => writeFile(lock, JSON.stringify({ pid, token: 'someone-else' }));

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

  it('breaks a lock older than the stale age even if its process lives', async () => {
    await holdBy(process.pid);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect(await withFileLock(lock, async () => 'ran', { timeoutMs: 5_000 })).toBe('ran');
  });

  it('breaks an unreadable lock only once it is old', async () => {
    await writeFile(lock, '');
    const err: unknown = await withFileLock(lock, async () => 'ran', { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlitzError);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect(await withFileLock(lock, async () => 'ran', { timeoutMs: 1_000 })).toBe('ran');
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
