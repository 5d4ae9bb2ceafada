import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { answerId, looksLikeMessage } from '@blitz/core/lines';
import { holdsAt, idAt } from './line-bytes.js';

/** An answer as the daemon writes its tool results: id first, ASCII ids only (the rest are read whole). */
const ANSWER_HEAD = Buffer.from('{"jsonrpc":"2.0","id":');
const RESULT = Buffer.from(',"result":');
const ERROR = Buffer.from(',"error":');
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
