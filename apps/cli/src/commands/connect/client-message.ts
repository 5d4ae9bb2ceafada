import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { invalidLineRefusal, parseLine, refuseClientMessage, type LineRefusal } from '@blitz/core/lines';

/**
 * A line from the client that is not passed on as its bytes, read whole: the message it
 * holds, or the answer that refuses it (`null`: dropped, there is no request to answer).
 */
export type ClientMessage = { message: JSONRPCMessage } | { refused: LineRefusal | null } | { blank: true };

/** Parses one line (its `\n` left out) and checks its shape, its id and params, and its depth, as every client message is. */
export function readClientMessage(line: Buffer, maxDepth: number): ClientMessage {
  const text = line.toString('utf8');
  if (text.trim() === '') return { blank: true };
  const item = parseLine(text);
  if ('invalid' in item) return { refused: invalidLineRefusal(item.invalid) };
  if (!('message' in item)) return { refused: null };
  const refusal = refuseClientMessage(item.message, maxDepth);
  return refusal === undefined ? { message: item.message } : { refused: refusal.answer };
}
