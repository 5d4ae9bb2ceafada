export * from './config/index.js';
export * from './errors/blitz-error.js';
export * from './clock/clock.js';
export * from './redact/index.js';
export * from './catalog/index.js';
export * from './connection/index.js';
export * from './manager/index.js';
