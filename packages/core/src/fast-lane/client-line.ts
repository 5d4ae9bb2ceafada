import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { holdsAt, idAt, idBefore, methodAt } from './line-bytes.js';

/** A request as the SDK client writes it: method first, `"jsonrpc":"2.0","id":…` last. */
const SDK_HEAD = Buffer.from('{"method":"');
const SDK_TAIL = Buffer.from(',"jsonrpc":"2.0","id":');
/** A request as most other peers write it: jsonrpc and id first, then the method. */
const ID_FIRST = Buffer.from('{"jsonrpc":"2.0","id":');
const METHOD_NEXT = Buffer.from(',"method":"');
const COMMA = 0x2c;
const CLOSE = 0x7d;

/** A request `blitz connect` can pass on as its bytes: what it answers for, if the daemon is lost. */
export interface ClientRequestHead {
  id: RequestId;
  method: string;
}

/**
 * The id and method of a request from the client, read from the line's ends alone when it is
 * written in one of the shapes peers write requests in (an integer id, or an ASCII string one
 * with nothing escaped); undefined for anything else (a notification, an answer, `initialize`,
 * a line written otherwise), which is parsed whole. The key found last is the object's own:
 * in JSON the final `}` closes the outermost object. `start` and `end` bound the line within
 * `bytes` (its `\n` left out; a `\r` before it is skipped).
 */
export function readClientRequest(bytes: Buffer, start = 0, end = bytes.length): ClientRequestHead | undefined {
  if (end > start && bytes[end - 1] === 0x0d) end--;
  const found = holdsAt(bytes, start, end, SDK_HEAD)
    ? sdkShape(bytes, start, end)
    : holdsAt(bytes, start, end, ID_FIRST)
      ? idFirst(bytes, start, end)
      : undefined;
  return found && found.method !== 'initialize' ? found : undefined;
}

function sdkShape(bytes: Buffer, start: number, end: number): ClientRequestHead | undefined {
  const method = methodAt(bytes, start + SDK_HEAD.length, end);
  if (!method || bytes[method.at + 1] !== COMMA || bytes[end - 1] !== CLOSE) return undefined;
  const id = idBefore(bytes, method.at + 1, end - 1);
  return id && holdsAt(bytes, id.at - SDK_TAIL.length, end, SDK_TAIL) ? { id: id.value, method: method.value } : undefined;
}

function idFirst(bytes: Buffer, start: number, end: number): ClientRequestHead | undefined {
  const id = idAt(bytes, start + ID_FIRST.length, end);
  if (!id || !holdsAt(bytes, id.at, end, METHOD_NEXT)) return undefined;
  const method = methodAt(bytes, id.at + METHOD_NEXT.length, end);
  const next = method && bytes[method.at + 1];
  return method && (next === COMMA || next === CLOSE) ? { id: id.value, method: method.value } : undefined;
}
