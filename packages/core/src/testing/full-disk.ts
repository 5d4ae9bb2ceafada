/**
 * Test support: a real small file system (tmpfs) that can be filled up, for what a write does
 * when the disk is full. Needs Linux and the right to mount (root, or CAP_SYS_ADMIN); where
 * mounting fails, `mountSmallDisk` says why and tests skip.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  readonly dir: string;
  /** Fills the disk, leaving `roomBytes` free (rounded to pages by tmpfs). */
  fill(roomBytes?: number): void;
  /** Frees what `fill` took. */
  empty(): void;
  unmount(): void;
}

export function mountSmallDisk(sizeKb = 256): SmallDisk | { reason: string } {
  if (process.platform !== 'linux') return { reason: 'not Linux' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-small-disk-'));
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mount.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { reason: `cannot mount a tmpfs here: ${(mount.stderr || mount.error?.message || `exit ${mount.status}`).trim()}` };
  }
  const filler = path.join(dir, '.filler');
  return {
    dir,
    fill(roomBytes = 0) {
      const fd = fs.openSync(filler, 'a');
      try {
        const chunk = Buffer.alloc(4096);
        for (;;) fs.writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        fs.closeSync(fd);
      }
      if (roomBytes > 0) fs.truncateSync(filler, Math.max(0, fs.statSync(filler).size - roomBytes));
    },
    empty: () => fs.rmSync(filler, { force: true }),
    unmount() {
      spawnSync('umount', ['-l', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
