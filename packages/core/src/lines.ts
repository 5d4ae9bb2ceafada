// `@blitz/core/lines`: what a stdio bridge needs (MCP's line framing and message shapes),
// without the rest of core — `blitz connect` loads this alone (bench/startup.mjs).
export { JsonLinesTransport, type JsonLinesOptions, type LineStreams } from './jsonrpc/json-lines-transport.js';
export { BoundedLines, type OversizeLine } from './jsonrpc/bounded-lines.js';
export { invalidLineRefusal, oversizeRefusal, type LineRefusal } from './jsonrpc/line-refusals.js';
export { parseLine } from './jsonrpc/message-lines.js';
export { whenDrained } from './jsonrpc/when-drained.js';
export { answerId, isNotification, isRequest, looksLikeMessage } from './jsonrpc/jsonrpc-shape.js';
export { MAX_MESSAGE_DEPTH, refuseTooDeep } from './jsonrpc/message-depth.js';
export { refuseClientMessage, type ClientMessageRefusal } from './jsonrpc/client-message-refusal.js';
// The fast lane's line readers (fast-lane/): a request's id and method, an answer's id, read from a line's ends.
export { readClientRequest, type ClientRequestHead } from './fast-lane/client-line.js';
export { parseDaemonLine, readDaemonLine, type DaemonLine } from './fast-lane/daemon-line.js';
