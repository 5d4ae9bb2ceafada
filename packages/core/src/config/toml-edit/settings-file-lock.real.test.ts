import { spawn, spawnSync } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { FakeClock, type Clock } from '@blitz/clock';
import { processStart } from '@blitz/process';
import { BlitzError } from '../../errors/blitz-error.js';
import { REAL_WAIT } from '../../testing/real-wait.js';
import { readHeld, takeOver, withFileLock } from './settings-file-lock.js';

const waiterChild = fileURLToPath(new URL('./testdata/lock-waiter-child.mjs', import.meta.url));

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

/** A clock on which any wait fails the call: what it locks, it locks at once. */
const atOnce: Clock = {
  now: () => Date.now(),
  setTimeout() {
    throw new Error('the lock waited');
  },
};

/** Resolves when the lock sits waiting between two tries on `clock` (or `call` has settled). */
async function waiting(clock: FakeClock, call: Promise<unknown>): Promise<void> {
  let settled = false;
  void call.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled && clock.pendingTimers() === 0) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Moves `clock` on by `ms`, in steps of at most 100 ms taken each time the lock waits on it,
 * and returns once the lock waits again or `call` has settled.
 */
async function waitOut(clock: FakeClock, call: Promise<unknown>, ms: number): Promise<void> {
  for (const end = clock.now() + ms; clock.now() < end;) {
    await waiting(clock, call);
    if (clock.pendingTimers() === 0) return;
    clock.advance(Math.min(100, end - clock.now()));
  }
  await waiting(clock, call);
}

const holdBy = (pid: number, start?: string) =>
  writeFile(lock, JSON.stringify({ pid, ...(start === undefined ? {} : { start }), token: 'someone-else' }));

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
        // Hand the event loop to the others a few times while holding the lock.
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
        inside--;
      });
    await Promise.all(Array.from({ length: 6 }, run));
    expect(most).toBe(1);
  });

  it('breaks a lock whose process is gone', async () => {
    await holdBy(deadPid());
    expect(await withFileLock(lock, async () => 'ran', { clock: atOnce })).toBe('ran');
    expect(await readdir(dir)).toEqual([]);
  });

  it('breaks a lock older than the stale age when its start time is unknown', async () => {
    await holdBy(process.pid);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect(await withFileLock(lock, async () => 'ran', { clock: atOnce })).toBe('ran');
  });

  it('takes over an empty lock file at once: a live lock is never empty', async () => {
    // What a process killed between creating and writing its lock used to leave.
    await writeFile(lock, '');
    expect(await withFileLock(lock, async () => 'ran', { clock: atOnce })).toBe('ran');
    expect(await readdir(dir)).toEqual([]);
  });

  it.skipIf(processStart(process.pid) === undefined)(
    'takes over a lock whose pid now runs another process (start times differ)',
    async () => {
      await holdBy(process.pid, 'not-the-start-of-this-process');
      expect(await withFileLock(lock, async () => 'ran', { clock: atOnce })).toBe('ran');
    },
  );

  it.skipIf(processStart(process.pid) === undefined)('waits for a lock whose owner lives, however old the lock', async () => {
    await holdBy(process.pid, processStart(process.pid));
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const clock = new FakeClock(Date.now());
    const call = withFileLock(lock, async () => 'ran', { timeoutMs: 200, clock }).catch((e: unknown) => e);
    await waitOut(clock, call, 1_000);
    expect(((await call) as BlitzError).reason).toBe('SETTINGS_LOCKED');
  });

  it('writes its owner whole before the lock appears, and leaves no temporary file', async () => {
    const owner = await withFileLock(lock, async () => JSON.parse(await readFile(lock, 'utf8')) as Record<string, unknown>);
    expect(owner).toMatchObject({ pid: process.pid, token: expect.any(String) });
    expect(await readdir(dir)).toEqual([]);
  });

  it('waits for a live lock to be released', async () => {
    await holdBy(process.pid);
    const clock = new FakeClock(Date.now());
    let ran = false;
    const call = withFileLock(lock, async () => (ran = true), { clock });
    await waitOut(clock, call, 1_000);
    expect(ran).toBe(false);
    await rm(lock);
    await waitOut(clock, call, 1_000);
    expect(await call).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });

  it('gives up on a live lock after the timeout, naming the holder', async () => {
    await holdBy(process.pid);
    const clock = new FakeClock(Date.now());
    const call = withFileLock(lock, async () => 'ran', { timeoutMs: 10_000, clock }).catch((e: unknown) => e);
    await waitOut(clock, call, 9_900);
    expect(clock.pendingTimers()).toBe(1); // still trying, 100 ms before its time
    await waitOut(clock, call, 1_000);
    const err = await call;
    expect(err).toBeInstanceOf(BlitzError);
    expect((err as BlitzError).code).toBe('TIMEOUT');
    expect((err as BlitzError).reason).toBe('SETTINGS_LOCKED');
    expect((err as BlitzError).message).toContain(`${lock}: held by process ${process.pid}`);
    expect(await readdir(dir)).toEqual(['settings.toml.lock']);
  });

  it(
    'keeps a process that only waits on it alive until it holds the lock (a CLI once exited 0 mid-wait, having done nothing)',
    { timeout: 60_000 },
    async () => {
      await holdBy(process.pid);
      // Each try writes a temporary file beside the lock: a second one means the child waited once.
      let tries = 0;
      const watcher = watch(
        dir,
        (_event, name) => void (String(name).startsWith('settings.toml.lock.') && String(name).endsWith('.tmp') && tries++),
      );
      try {
        const child = spawn(process.execPath, [waiterChild, lock], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
        let gone = false;
        void exited.then(() => (gone = true));
        await expect.poll(() => gone || tries >= 2, REAL_WAIT).toBe(true);
        await rm(lock);
        expect(await exited).toBe(0);
        expect(out).toBe('ran\n');
      } finally {
        watcher.close();
      }
    },
  );

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
