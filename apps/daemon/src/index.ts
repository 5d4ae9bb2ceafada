import { fileURLToPath } from 'node:url';

export { Daemon, type DaemonOptions } from './daemon.js';
export { AlreadyRunning } from './instance-lock.js';
export { runDaemon } from './run-daemon.js';

/** The file `blitz daemon start` runs in a detached process. */
export const DAEMON_ENTRY = fileURLToPath(new URL('./main.js', import.meta.url));
