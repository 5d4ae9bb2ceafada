export { isProcessAlive } from './is-process-alive.js';
export { processStart } from './process-start.js';
export { acquirePidLock, type PidLock } from './pid-lock.js';
