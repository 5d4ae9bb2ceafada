// The fast lane (docs/architecture.md "The fast lane"): what the three lanes that take a plain
// `tools/call` past the MCP SDK's generic machinery share, in one room.
export { CallCancellation, callSignalOf, type CallSignal } from './call-signal.js';
export { callToolResultProblem, DirectToolCalls, type DirectCallOptions } from './direct-tool-calls.js';
export { isPlainToolCall, type PlainToolCall } from './plain-tool-call.js';
export { handlerErrorAnswer, resultAnswer } from './sdk-answers.js';
export { readClientRequest, type ClientRequestHead } from './client-line.js';
export { parseDaemonLine, readDaemonLine, type DaemonLine } from './daemon-line.js';
