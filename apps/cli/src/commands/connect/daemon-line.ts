import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { answerId, looksLikeMessage } from '@blitz/core/lines';

/** An answer as the daemon writes its tool results: id first, ASCII ids only (the rest are read whole). */
const ANSWER_HEAD = /^\{"jsonrpc":"2\.0","id":(-?\d+|"[ !#-[\]-~]*"),"(?:result|error)":/;
/** A notification or a request of the daemon's, as the SDK writes them: method first. */
const MESSAGE_HEAD = /^\{(?:"jsonrpc":"2\.0",)?"method":"/;
/** Enough of a line to hold either head with a long id. */
const HEAD_BYTES = 256;

/** What `blitz connect` needs of a line from the daemon: which request it answers, if any. */
export type DaemonLine = { answers: RequestId | undefined } | { unreadable: string };

/**
 * Reads a line from the daemon for the request it answers, from its head alone when the
 * daemon wrote it in one of the shapes it writes on the hot path, or else parsed whole: the
 * line itself is passed on to the client as it is, never parsed again or re-serialised.
 * `start` and `end` bound the line within `bytes`, its `\n` left out.
 */
export function readDaemonLine(bytes: Buffer, start = 0, end = bytes.length): DaemonLine {
  const head = bytes.toString('latin1', start, Math.min(end, start + HEAD_BYTES));
  const id = ANSWER_HEAD.exec(head)?.[1];
  if (id !== undefined) return { answers: JSON.parse(id) as RequestId };
  if (MESSAGE_HEAD.test(head)) return { answers: undefined };
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8', start, end));
  } catch (err) {
    return { unreadable: `not JSON (${(err as Error).message.split('\n')[0]!.slice(0, 200)})` };
  }
  if (!looksLikeMessage(value)) return { unreadable: 'valid JSON, but not a JSON-RPC 2.0 message' };
  return { answers: answerId(value) };
}

/** A whole line as the message it holds (the bridge's own re-initialize answers). */
export function parseDaemonLine(line: Buffer): JSONRPCMessage {
  return JSON.parse(line.toString('utf8')) as JSONRPCMessage;
}
