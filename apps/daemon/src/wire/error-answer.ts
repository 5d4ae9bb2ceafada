import { ErrorCode as Rpc } from '@modelcontextprotocol/sdk/types.js';
import { isBlitzError, type ErrorCode } from '@blitz/core';
import type { ErrorBody } from '@blitz/client';

/** JSON-RPC's "server error", the first of the codes it leaves to implementations. */
const SERVER_ERROR = -32000;

/** How an error is answered: its HTTP status, and its JSON-RPC error code on `/mcp`. */
interface Answer {
  status: number;
  rpc: number;
}

/**
 * The one place error codes become HTTP statuses and JSON-RPC error codes (STYLE.md rule 8):
 * throw sites give a code and a reason, never a status.
 */
const ANSWERS: Record<ErrorCode, Answer> = {
  NOT_FOUND: { status: 404, rpc: Rpc.InvalidParams },
  INVALID_ARGUMENT: { status: 400, rpc: Rpc.InvalidParams },
  PAYLOAD_TOO_LARGE: { status: 413, rpc: Rpc.InvalidRequest },
  METHOD_NOT_ALLOWED: { status: 405, rpc: Rpc.InvalidRequest },
  ALREADY_EXISTS: { status: 409, rpc: SERVER_ERROR },
  FAILED_PRECONDITION: { status: 412, rpc: Rpc.InternalError },
  TIMEOUT: { status: 504, rpc: Rpc.InternalError },
  SERVER_UNAVAILABLE: { status: 503, rpc: Rpc.InternalError },
  SERVER_EXITED: { status: 502, rpc: Rpc.InternalError },
  NEEDS_SIGN_IN: { status: 401, rpc: Rpc.InternalError },
  NEEDS_MORE_ACCESS: { status: 403, rpc: Rpc.InternalError },
  // As the SDK's own streamable HTTP server refuses a foreign Host.
  UNAUTHENTICATED: { status: 401, rpc: SERVER_ERROR },
  PERMISSION_DENIED: { status: 403, rpc: SERVER_ERROR },
  // A server's answer too large for the hub: the request was fine, the gateway refused what came back.
  RESULT_TOO_LARGE: { status: 502, rpc: Rpc.InternalError },
  CANCELLED: { status: 499, rpc: Rpc.InternalError },
  NO_SPACE: { status: 507, rpc: Rpc.InternalError },
  INTERNAL: { status: 500, rpc: Rpc.InternalError },
};

/**
 * JSON-RPC names a few refusals of a request to `/mcp` more finely than the codes do; these
 * reasons pick its code (the status still comes from the code).
 */
const RPC_BY_REASON: Readonly<Record<string, number>> = {
  NOT_JSON: Rpc.ParseError,
  NOT_JSON_RPC: Rpc.InvalidRequest,
  ALREADY_INITIALIZED: Rpc.InvalidRequest,
  // As the SDK's own streamable HTTP server answers these three.
  NO_SESSION: SERVER_ERROR,
  UNSUPPORTED_PROTOCOL_VERSION: SERVER_ERROR,
  SESSION_NOT_FOUND: -32001,
};

const UNEXPECTED = { code: 'INTERNAL', message: 'internal error; see the daemon log' } as const;

/** The HTTP status of a code, for an answer that is not JSON (the settings page's own pages). */
export function statusOf(code: ErrorCode): number {
  return ANSWERS[code].status;
}

/** A control-API error answer: its status and `{code, reason?, message, problems?}`. */
export function errorAnswer(err: unknown): { status: number; body: ErrorBody } {
  if (!isBlitzError(err)) return { status: ANSWERS.INTERNAL.status, body: { ...UNEXPECTED } };
  return {
    status: ANSWERS[err.code].status,
    body: {
      code: err.code,
      message: err.message,
      ...(err.reason ? { reason: err.reason } : {}),
      ...(err.problems.length ? { problems: [...err.problems] } : {}),
    },
  };
}

/** The same error as `/mcp` answers it: its status and a JSON-RPC error (every problem in its message). */
export function rpcErrorAnswer(err: unknown): { status: number; error: { code: number; message: string } } {
  if (!isBlitzError(err)) return { status: ANSWERS.INTERNAL.status, error: { code: ANSWERS.INTERNAL.rpc, message: UNEXPECTED.message } };
  const { status, rpc } = ANSWERS[err.code];
  const message = err.problems.length ? `${err.message}: ${err.problems.join('; ')}` : err.message;
  return { status, error: { code: (err.reason ? RPC_BY_REASON[err.reason] : undefined) ?? rpc, message } };
}
