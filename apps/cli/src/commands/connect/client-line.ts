import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** An id as a JSON-RPC peer writes it: an integer, or an ASCII string with nothing escaped. */
const ID = String.raw`(-?\d+|"[ !#-[\]-~]*")`;
/** A request as the SDK client writes it: method first, `"jsonrpc":"2.0","id":…` last. */
const SDK_HEAD = /^\{"method":"([!#-[\]-~]+)",/;
const SDK_TAIL = new RegExp(String.raw`,"jsonrpc":"2\.0","id":${ID}\}$`);
/** A request as most other peers write it: jsonrpc and id first, then the method. */
const ID_FIRST = new RegExp(String.raw`^\{"jsonrpc":"2\.0","id":${ID},"method":"([!#-[\]-~]+)"[,}]`);
/** Enough of a line's ends to hold either shape with a long id or method. */
const END_BYTES = 256;

/** A request `blitz connect` can pass on as its bytes: what it answers for, if the daemon is lost. */
export interface ClientRequestHead {
  id: RequestId;
  method: string;
}

/**
 * The id and method of a request from the client, read from the line's ends alone when it is
 * written in one of the shapes peers write requests in; undefined for anything else (a
 * notification, an answer, `initialize`, a line written otherwise), which is parsed whole.
 * The key found last is the object's own: in JSON the final `}` closes the outermost object.
 * `start` and `end` bound the line within `bytes` (its `\n` left out; a `\r` before it is skipped).
 */
export function readClientRequest(bytes: Buffer, start = 0, end = bytes.length): ClientRequestHead | undefined {
  if (end > start && bytes[end - 1] === 0x0d) end--;
  const head = bytes.toString('latin1', start, Math.min(end, start + END_BYTES));
  const sdk = SDK_HEAD.exec(head);
  const found = sdk ? requestOf(sdk[1]!, SDK_TAIL.exec(bytes.toString('latin1', Math.max(start, end - END_BYTES), end))?.[1]) : idFirst(head);
  return found && found.method !== 'initialize' ? found : undefined;
}

function idFirst(head: string): ClientRequestHead | undefined {
  const match = ID_FIRST.exec(head);
  return match ? requestOf(match[2]!, match[1]) : undefined;
}

function requestOf(method: string, id: string | undefined): ClientRequestHead | undefined {
  if (id === undefined) return undefined;
  return { id: id.startsWith('"') ? (JSON.parse(id) as string) : Number(id), method };
}
