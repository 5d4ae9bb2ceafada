import { oversizeId, type OversizeLine } from './bounded-lines.js';

/** A request's opening, as SDK and other peers write it: the method before any params. */
const REQUEST_HEAD = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?(?:"id"\s*:\s*(?:-?\d+|"(?:[^"\\]|\\.)*")\s*,\s*)?"method"\s*:/;

/** An error answer to a line read from a peer, written as it is (a line that is not JSON has no id: `null`). */
export interface LineRefusal {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/** The answer to a line that is not a message, by what is wrong with it. */
const REFUSALS = {
  'not JSON': { code: -32700, message: 'Parse error: a line that is not JSON' },
  'not JSON-RPC': { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
} as const;

export function invalidLineRefusal(invalid: keyof typeof REFUSALS): LineRefusal {
  return { jsonrpc: '2.0', id: null, error: { ...REFUSALS[invalid] } };
}

/** Why a line past the bound was skipped unread. */
export function oversizeMessage(line: OversizeLine, maxBytes: number): string {
  return `a message of ${line.bytes} bytes is more than the limit of ${maxBytes} bytes; it was not read`;
}

/** A line past the bound, skipped unread: a request is answered, so its sender hears why at once; anything else (`null`) is not. */
export function oversizeRefusal(line: OversizeLine, maxBytes: number): LineRefusal | null {
  const id = oversizeId(line);
  if (id === undefined || !REQUEST_HEAD.test(line.head)) return null;
  return { jsonrpc: '2.0', id, error: { code: -32600, message: oversizeMessage(line, maxBytes) } };
}
