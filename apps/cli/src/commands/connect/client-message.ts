import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { oversizeId, parseLine, REQUEST_HEAD, refuseTooDeep, type OversizeLine } from '@blitz/core/lines';

/**
 * A line from the client that is not passed on as its bytes, read whole: the message it
 * holds, or the answer that refuses it (`null`: dropped, there is no request to answer).
 */
export type ClientMessage = { message: JSONRPCMessage } | { refused: Refusal | null } | { blank: true };

/** An error answer to the client, written as it is (a line that is not JSON has no id: `null`). */
export interface Refusal {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/** The answer to a line that is not a message, by what is wrong with it. */
const REFUSALS = {
  'not JSON': { code: -32700, message: 'Parse error: a line that is not JSON' },
  'not JSON-RPC': { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
} as const;

/** Parses one line (its `\n` left out) and checks its shape and its depth, as every client message is. */
export function readClientMessage(line: Buffer, maxDepth: number): ClientMessage {
  const text = line.toString('utf8');
  if (text.trim() === '') return { blank: true };
  const item = parseLine(text);
  if ('invalid' in item) return { refused: { jsonrpc: '2.0', id: null, error: { ...REFUSALS[item.invalid] } } };
  if (!('message' in item)) return { refused: null };
  const refusal = refuseTooDeep(item.message, maxDepth);
  return refusal === undefined ? { message: item.message } : { refused: refusal as Refusal | null };
}

/** A line past the bound, skipped unread: a request is answered, so the client hears why at once. */
export function refuseOversize(line: OversizeLine, maxBytes: number): Refusal | null {
  const id = oversizeId(line);
  if (id === undefined || !REQUEST_HEAD.test(line.head)) return null;
  return { jsonrpc: '2.0', id, error: { code: -32600, message: `a message of ${line.bytes} bytes is more than the limit of ${maxBytes} bytes; it was not read` } };
}
