import { fileURLToPath } from 'node:url';

export { Daemon, type DaemonOptions } from './daemon.js';
export { AlreadyRunning } from './instance-lock.js';
export { runDaemon } from './run-daemon.js';

/** Set by the package bundle (scripts/pack.mjs): the daemon's entry, relative to the bundle's files. */
declare const __BLITZ_DAEMON_ENTRY__: string | undefined;

/** The file `blitz daemon start` runs in a detached process: `main.js` here, or the bundle's own daemon entry. */
export const DAEMON_ENTRY = fileURLToPath(new URL(typeof __BLITZ_DAEMON_ENTRY__ === 'string' ? __BLITZ_DAEMON_ENTRY__ : './main.js', import.meta.url));
