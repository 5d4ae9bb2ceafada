import { isBlitzError, type ErrorCode } from '@blitz/core';
import type { ErrorBody } from '@blitz/client';

/** The one place error codes become HTTP statuses (STYLE.md rule 8). */
const STATUS: Record<ErrorCode, number> = {
  NOT_FOUND: 404,
  INVALID_ARGUMENT: 400,
  ALREADY_EXISTS: 409,
  FAILED_PRECONDITION: 412,
  TIMEOUT: 504,
  SERVER_UNAVAILABLE: 503,
  SERVER_EXITED: 502,
  NEEDS_SIGN_IN: 401,
  NEEDS_MORE_ACCESS: 403,
  PERMISSION_DENIED: 403,
  RESULT_TOO_LARGE: 413,
  CANCELLED: 499,
  INTERNAL: 500,
};

/** An error for the HTTP layer itself (auth, routing, bodies). */
export class HttpError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, code: string, message: string, reason?: string) {
    super(message);
    this.status = status;
    this.body = { code, message, ...(reason ? { reason } : {}) };
  }
}

export function toErrorResponse(err: unknown): { status: number; body: ErrorBody } {
  if (err instanceof HttpError) return { status: err.status, body: err.body };
  if (isBlitzError(err)) {
    return {
      status: STATUS[err.code],
      body: { code: err.code, message: err.message, ...(err.reason ? { reason: err.reason } : {}), ...(err.problems.length ? { problems: [...err.problems] } : {}) },
    };
  }
  return { status: 500, body: { code: 'INTERNAL', message: 'internal error; see the daemon log' } };
}
