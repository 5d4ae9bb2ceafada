import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isRequest } from './jsonrpc-shape.js';

/**
 * How deep a client's message may nest, counting objects and arrays, the message itself as
 * level 1 (so a tool's `arguments` may nest 61 levels). Far beyond any real tool input, and far
 * below what the recursive parts of the path (JSON.stringify, schema validation) survive: a
 * request nested 100,000 deep once overflowed the stack while being written to a server.
 */
export const MAX_MESSAGE_DEPTH = 64;

/** Whether `value` nests objects and arrays deeper than `max`; walked with a stack of its own, never recursively. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<{ node: object; depth: number }> = [{ node: value, depth: 1 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (item.depth > max) return true;
    for (const child of Array.isArray(item.node) ? item.node : Object.values(item.node)) {
      if (typeof child === 'object' && child !== null) stack.push({ node: child, depth: item.depth + 1 });
    }
  }
  return false;
}

/** Why a message was refused, for its sender and the log. */
export function tooDeepMessage(max: number): string {
  return `Invalid params: the message nests objects and arrays deeper than ${max} levels; it was not passed on`;
}

/**
 * The answer to a client's message nested past `max`: a -32602 error for its request, to
 * that client only; `null` for a notification or a response, which is dropped. `undefined`
 * when the message is fine.
 */
export function refuseTooDeep(message: JSONRPCMessage, max: number): JSONRPCMessage | null | undefined {
  if (!nestsDeeperThan(message, max)) return undefined;
  return isRequest(message) ? { jsonrpc: '2.0', id: message.id, error: { code: -32602, message: tooDeepMessage(max) } } : null;
}
