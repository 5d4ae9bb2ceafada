import fs from 'node:fs';
import path from 'node:path';
import { isProcessAlive, readDaemonState, type DaemonState } from '@blitz/client';

/** One daemon per BLITZ_HOME: another one already holds the lock. */
export class AlreadyRunning extends Error {
  readonly state: DaemonState | undefined;
  readonly pid: number;

  constructor(pid: number, state: DaemonState | undefined) {
    super(state ? `a Blitz daemon is already running (pid ${state.pid}, http://127.0.0.1:${state.port})` : `a Blitz daemon is already starting (pid ${pid})`);
    this.name = 'AlreadyRunning';
    this.pid = pid;
    this.state = state;
  }
}

/**
 * `state/daemon.lock`, created exclusively with our pid. A lock whose pid is dead is stale
 * (the daemon was killed) and is taken over; a live one means another daemon runs.
 */
export function acquireInstanceLock(home: string): { release(): void } {
  const file = path.join(home, 'state', 'daemon.lock');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return {
        release() {
          try {
            if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.rmSync(file);
          } catch {
            // Already gone.
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(fs.readFileSync(file, 'utf8').trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isProcessAlive(holder)) {
      throw new AlreadyRunning(holder, readDaemonState(home));
    }
    fs.rmSync(file, { force: true });
  }
  throw new Error(`cannot take ${file}`);
}
