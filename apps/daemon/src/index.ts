export { Daemon, type DaemonOptions } from './daemon.js';
export { AlreadyRunning } from './instance-lock.js';
export { runDaemon } from './run-daemon.js';
export { DAEMON_ENTRY } from './entry.js';
