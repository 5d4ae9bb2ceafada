import path from 'node:path';
import { readDaemonState, type DaemonState } from '@blitz/client';
import { acquirePidLock } from '@blitz/process';

/** One daemon per BLITZ_HOME: another one already holds the lock. */
export class AlreadyRunning extends Error {
  readonly state: DaemonState | undefined;
  readonly pid: number;

  constructor(pid: number, state: DaemonState | undefined) {
    super(
      state
        ? `a Blitz daemon is already running (pid ${state.pid}, http://127.0.0.1:${state.port})`
        : `a Blitz daemon is already starting (pid ${pid})`,
    );
    this.name = 'AlreadyRunning';
    this.pid = pid;
    this.state = state;
  }
}

/** `state/daemon.lock`: a lock left by a daemon that was killed is taken over. */
export function acquireInstanceLock(home: string): { release(): void } {
  const lock = acquirePidLock(path.join(home, 'state', 'daemon.lock'));
  if (!lock.acquired) throw new AlreadyRunning(lock.pid, readDaemonState(home));
  return lock;
}
