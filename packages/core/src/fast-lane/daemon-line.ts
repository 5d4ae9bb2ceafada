import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { answerId, looksLikeMessage } from '../jsonrpc/jsonrpc-shape.js';
import { holdsAt, idAt, idBefore } from './line-bytes.js';

/** An answer as the SDK server (and the hub's fast lane) writes a result: result first, id last; ASCII ids only (the rest are read whole). */
const RESULT_HEAD = Buffer.from('{"result":');
const RESULT_TAIL = Buffer.from(',"jsonrpc":"2.0","id":');
/** An answer as it writes an error: id first. */
const ANSWER_HEAD = Buffer.from('{"jsonrpc":"2.0","id":');
const RESULT = Buffer.from(',"result":');
const ERROR = Buffer.from(',"error":');
const CLOSE = 0x7d;
/** A notification or a request of the daemon's, as the SDK writes them: method first. */
const MESSAGE_HEADS = [Buffer.from('{"jsonrpc":"2.0","method":"'), Buffer.from('{"method":"')];

/** What `blitz connect` needs of a line from the daemon: which request it answers, if any. */
export type DaemonLine = { answers: RequestId | undefined } | { unreadable: string };

/**
 * Reads a line from the daemon for the request it answers, from its head alone when the
 * daemon wrote it in one of the shapes it writes on the hot path, or else parsed whole: the
 * line itself is passed on to the client as it is, never parsed again or re-serialised.
 * `start` and `end` bound the line within `bytes`, its `\n` left out.
 */
export function readDaemonLine(bytes: Buffer, start = 0, end = bytes.length): DaemonLine {
  // The key found last is the object's own: in JSON the final `}` closes the outermost object.
  if (holdsAt(bytes, start, end, RESULT_HEAD) && bytes[end - 1] === CLOSE) {
    const last = idBefore(bytes, start, end - 1);
    if (last && holdsAt(bytes, last.at - RESULT_TAIL.length, end, RESULT_TAIL)) return { answers: last.value };
  }
  const id = holdsAt(bytes, start, end, ANSWER_HEAD) ? idAt(bytes, start + ANSWER_HEAD.length, end) : undefined;
  if (id && (holdsAt(bytes, id.at, end, RESULT) || holdsAt(bytes, id.at, end, ERROR))) return { answers: id.value };
  if (MESSAGE_HEADS.some((head) => holdsAt(bytes, start, end, head))) return { answers: undefined };
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
