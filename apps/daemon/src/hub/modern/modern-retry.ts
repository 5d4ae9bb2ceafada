import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { INVALID_PARAMS, MULTI_ROUND } from '@blitz/core';
import { checkInputResponses } from './input-responses.js';
import type { InputWaits } from './input-waits.js';
import type { HeldCall } from './modern-exchange.js';
import { nameOf } from './modern-request.js';

export type Retry = { kind: 'fresh' } | { kind: 'resume'; held: HeldCall } | { kind: 'refused'; error: { code: number; message: string } };

/**
 * What a modern request is to the hub's held calls: a retry carrying a `requestState` the hub
 * gave resumes that call (one altered, stale, expired or for another request is refused
 * -32602); any other is a fresh request, whose `inputResponses`, if any, must be well formed.
 */
export function retryOf(request: JSONRPCRequest, waits: InputWaits<HeldCall>): Retry {
  if (!MULTI_ROUND.has(request.method)) return { kind: 'fresh' };
  const params = request.params as { requestState?: unknown; inputResponses?: unknown } | undefined;
  const shape = checkInputResponses(params?.inputResponses);
  if ('invalid' in shape) return { kind: 'refused', error: { code: INVALID_PARAMS, message: `Invalid params: ${shape.invalid}` } };
  if (params?.requestState === undefined) return { kind: 'fresh' };
  const opened = waits.open(params.requestState, request.method, nameOf(request));
  if (!opened.ok) return { kind: 'refused', error: { code: INVALID_PARAMS, message: `Invalid params: ${opened.message}` } };
  return { kind: 'resume', held: opened.waiting };
}
