export * from './read-bounded-regular-file.js';
export * from './decode-utf8.js';
export * from './read-text-file.js';
export * from './no-space.js';
export * from './coalesced-writes.js';
export * from './write-text-atomic.js';
export * from './format-bytes.js';
