import fs from 'node:fs';
import path from 'node:path';
import type { DaemonState } from './api-types.js';

export function daemonStatePath(home: string): string {
  return path.join(home, 'state', 'daemon.json');
}

/** The running daemon's state, or undefined when none runs (no file, unreadable, or its pid is dead). */
export function readDaemonState(home: string): DaemonState | undefined {
  let state: DaemonState;
  try {
    state = JSON.parse(fs.readFileSync(daemonStatePath(home), 'utf8')) as DaemonState;
  } catch {
    return undefined;
  }
  if (typeof state.pid !== 'number' || typeof state.port !== 'number' || typeof state.token !== 'string') return undefined;
  return isProcessAlive(state.pid) ? state : undefined;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, but another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
