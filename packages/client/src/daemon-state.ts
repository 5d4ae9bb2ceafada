import fs from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '@blitz/process';
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
  if (state.socket !== undefined && typeof state.socket !== 'string') delete state.socket;
  return isProcessAlive(state.pid) ? state : undefined;
}
