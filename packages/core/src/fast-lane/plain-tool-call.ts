import type { CallToolRequest, JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';

/** A `tools/call` as the fast lane takes it whole: its params as the SDK's schema reads them. */
export type PlainToolCall = JSONRPCRequest & Pick<CallToolRequest, 'params'>;

/**
 * A `tools/call` request whose params have the shape the SDK's schema takes, and no task: what
 * the hub's fast path answers itself. Anything else goes to the SDK server, which answers it
 * (and refuses what its schema refuses) as ever.
 */
export function isPlainToolCall(message: JSONRPCMessage): message is PlainToolCall {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return false;
  if (typeof message.id !== 'string' && typeof message.id !== 'number') return false;
  const params = message.params as Record<string, unknown> | undefined;
  if (!isRecord(params) || typeof params.name !== 'string' || params.task !== undefined) return false;
  if (params.arguments !== undefined && !isRecord(params.arguments)) return false;
  if (params._meta === undefined) return true;
  if (!isRecord(params._meta)) return false;
  const token = params._meta.progressToken;
  return token === undefined || typeof token === 'string' || typeof token === 'number';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
