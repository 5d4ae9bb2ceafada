// `@blitz/core/lines`: what a stdio bridge needs (MCP's line framing and message shapes),
// without the rest of core — `blitz connect` loads this alone (bench/startup.mjs).
export { JsonLinesTransport, REQUEST_HEAD, type JsonLinesOptions, type LineStreams } from './jsonrpc/json-lines-transport.js';
export { BoundedLines, oversizeId, type OversizeLine } from './jsonrpc/bounded-lines.js';
export { parseLine } from './jsonrpc/message-lines.js';
export { whenDrained } from './jsonrpc/when-drained.js';
export { answerId, isNotification, isRequest, looksLikeMessage } from './jsonrpc/jsonrpc-shape.js';
export { MAX_MESSAGE_DEPTH, refuseTooDeep, tooDeepMessage } from './jsonrpc/message-depth.js';
