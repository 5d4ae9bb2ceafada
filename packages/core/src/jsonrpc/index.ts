export { JsonLinesTransport, type JsonLinesOptions, type LineStreams } from './json-lines-transport.js';
export { answerId, isNotification, isRequest, looksLikeMessage } from './jsonrpc-shape.js';
export { MAX_MESSAGE_DEPTH, nestsDeeperThan, refuseTooDeep, tooDeepMessage } from './message-depth.js';
export { refuseClientMessage, type ClientMessageRefusal } from './client-message-refusal.js';
