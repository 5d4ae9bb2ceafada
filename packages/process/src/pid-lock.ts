import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from './is-process-alive.js';
import { processStart } from './process-start.js';

export type PidLock = { acquired: true; release(): void } | { acquired: false; pid: number };

/**
 * A lock file holding its owner's pid and start time: one daemon, or one tray, per Blitz
 * home. A lock whose owner is gone — dead, or its pid reused by another process — is taken
 * over; it is first renamed aside, so two takers cannot both break it and both win.
 */
export function acquirePidLock(file: string): PidLock {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const mine = `${process.pid} ${processStart(process.pid) ?? ''}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: 'wx', mode: 0o600 });
      return {
        acquired: true,
        release: () => {
          // Only our own: a takeover by another process must not be undone.
          if (readLock(file)?.raw === mine) fs.rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const held = readLock(file);
    if (held && held.pid !== process.pid && isOwnerAlive(held)) return { acquired: false, pid: held.pid };
    const aside = `${file}.stale-${crypto.randomBytes(4).toString('hex')}`;
    try {
      fs.renameSync(file, aside);
      // What we moved must be the stale lock we judged, not a fresh one taken meanwhile.
      const moved = readLock(aside);
      if (moved && held && moved.raw !== held.raw && isOwnerAlive(moved)) fs.renameSync(aside, file);
      else fs.rmSync(aside, { force: true });
    } catch {
      // Someone else broke it first: try again.
    }
  }
  throw new Error(`could not take the lock ${file}`);
}

interface Held {
  raw: string;
  pid: number;
  start: string | undefined;
}

function readLock(file: string): Held | undefined {
  try {
    const raw = fs.readFileSync(file, 'utf8');
    const [pidText, start] = raw.trim().split(' ');
    const pid = Number.parseInt(pidText ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? { raw, pid, start: start || undefined } : undefined;
  } catch {
    return undefined;
  }
}

/** Alive, and the same process: where start times can be read, a reused pid does not count. */
function isOwnerAlive(held: Held): boolean {
  if (!isProcessAlive(held.pid)) return false;
  const start = processStart(held.pid);
  return held.start === undefined || start === undefined || start === held.start;
}
