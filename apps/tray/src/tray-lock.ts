import fs from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '@blitz/client';

export type TrayLock = { acquired: true; release(): void } | { acquired: false; pid: number };

/**
 * One tray per Blitz home (`state/tray.lock` holding its pid): a second one would show a
 * second icon and repeat every notification. A lock left by a tray that died is taken over.
 */
export function lockTray(home: string): TrayLock {
  const file = path.join(home, 'state', 'tray.lock');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return {
        acquired: true,
        release: () => {
          // Only our own: a stale-lock takeover by another tray must not be undone.
          if (readPid(file) === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = readPid(file);
    if (pid !== undefined && pid !== process.pid && isProcessAlive(pid)) return { acquired: false, pid };
    fs.rmSync(file, { force: true });
  }
  throw new Error(`could not take the tray lock ${file}`);
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
