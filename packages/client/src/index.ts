export * from './api-types.js';
export { ApiError } from './api-error.js';
export { BlitzClient, DaemonUnreachable, type ClientOptions } from './blitz-client.js';
export { daemonStatePath, readDaemonState } from './daemon-state.js';
export { daemonSocketPath } from './daemon-socket.js';
