import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { isBlitzError } from '@blitz/core';
import { rpcErrorAnswer } from '../wire/error-answer.js';

const SDK_PREFIX = /^MCP error -?\d+: /;

/**
 * A JSON-RPC error the SDK sends as it stands. An `McpError`'s message already reads
 * "MCP error -32602: …" and the receiving SDK puts that in front once more ("MCP error
 * -32602: MCP error -32602: unknown tool"); this one carries the bare message.
 */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
  }

  /** An error to pass on to the other side: an SDK error keeps its code and data, loses its prefix. */
  static passOn(err: unknown): unknown {
    return err instanceof McpError ? new RpcError(err.code, err.message.replace(SDK_PREFIX, ''), err.data) : err;
  }
}

/** Runs a pass-through request, turning Blitz errors into JSON-RPC errors the client understands. */
export async function passThrough<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw passedOn(err);
  }
}

/** An error of a pass-through request as the client is to get it: a Blitz error as its JSON-RPC error, an SDK error unprefixed. */
export function passedOn(err: unknown): unknown {
  if (isBlitzError(err)) {
    const { error } = rpcErrorAnswer(err);
    return new RpcError(error.code, error.message);
  }
  return RpcError.passOn(err);
}
