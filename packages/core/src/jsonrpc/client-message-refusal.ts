import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { LineRefusal } from './line-refusals.js';
import { refuseTooDeep, tooDeepMessage } from './message-depth.js';

/** Why a client's message is not passed on, and what its sender is answered (`null`: a notification or response, dropped). */
export interface ClientMessageRefusal {
  answer: LineRefusal | null;
  why: string;
}

const BAD_ID = 'Invalid Request: a request id must be a string or an integer';

/**
 * What is wrong with a client's message before any schema reads it (issue 25.5): a request
 * whose id is not a string or an integer (null, an object, an array, 1.5, true) is answered
 * -32600 with id `null`, as JSON-RPC 2.0 says of an id that cannot be told; params that are
 * not an object (MCP's params are always one) -32602; a message nested past `maxDepth` -32602.
 * Every request gets an answer: a peer that gets none waits for it forever. `undefined`: fine.
 */
export function refuseClientMessage(message: JSONRPCMessage, maxDepth: number): ClientMessageRefusal | undefined {
  const m = message as Record<string, unknown>;
  if (typeof m.method === 'string') {
    const isRequest = 'id' in m;
    if (isRequest && !isRequestId(m.id))
      return { answer: { jsonrpc: '2.0', id: null, error: { code: -32600, message: BAD_ID } }, why: BAD_ID };
    if (m.params !== undefined && !isPlainObject(m.params)) {
      const why = `Invalid params: the params of ${m.method.slice(0, 100)} must be an object, not ${kindOf(m.params)}`;
      return { answer: isRequest ? { jsonrpc: '2.0', id: m.id as string | number, error: { code: -32602, message: why } } : null, why };
    }
  }
  const tooDeep = refuseTooDeep(message, maxDepth);
  return tooDeep === undefined ? undefined : { answer: tooDeep as LineRefusal | null, why: tooDeepMessage(maxDepth) };
}

function isRequestId(id: unknown): id is string | number {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
