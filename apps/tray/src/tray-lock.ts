import path from 'node:path';
import { acquirePidLock, type PidLock } from '@blitz/process';

export type TrayLock = PidLock;

/**
 * One tray per Blitz home (`state/tray.lock`): a second one would show a second icon and
 * repeat every notification. A lock left by a tray that died is taken over.
 */
export function lockTray(home: string): TrayLock {
  return acquirePidLock(path.join(home, 'state', 'tray.lock'));
}
