import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

// The answers to a request as the SDK's Protocol writes them, key for key and in its order: what
// the fast lane writes must reach a client as the same bytes (test/hub/fast-lane-contract.real.test.ts),
// and `blitz connect` reads an answer's id from where these put it (daemon-line.ts).

/** A handler's result: `{"result":…,"jsonrpc":"2.0","id":…}`. */
export function resultAnswer(id: RequestId, result: unknown): JSONRPCMessage {
  return { result, jsonrpc: '2.0', id } as JSONRPCMessage;
}

/** A handler's error: its integer code (else InternalError), its message (else "Internal error"), its data when it has any. */
export function handlerErrorAnswer(id: RequestId, err: unknown): JSONRPCMessage {
  const { code, message, data } = (err ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: Number.isSafeInteger(code) ? (code as number) : ErrorCode.InternalError,
      message: typeof message === 'string' ? message : 'Internal error',
      ...(data === undefined ? {} : { data }),
    },
  };
}
