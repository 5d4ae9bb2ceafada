import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * What kind of JSON-RPC message this is, by its shape alone. The SDK's type guards validate a
 * whole schema per call, which costs more than the rest of a hop on the hot path; the peer
 * that handles the message validates it fully anyway.
 */
export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

export function isNotification(message: JSONRPCMessage): boolean {
  return 'method' in message && !('id' in message);
}

/** A result or an error answering a request; its id. */
export function answerId(message: JSONRPCMessage): RequestId | undefined {
  return !('method' in message) && 'id' in message ? (message.id ?? undefined) : undefined;
}

/** Whether a parsed JSON value looks like a JSON-RPC 2.0 message at all. */
export function looksLikeMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  return m.jsonrpc === '2.0' && (typeof m.method === 'string' || ('id' in m && ('result' in m || 'error' in m)));
}
