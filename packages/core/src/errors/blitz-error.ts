import type { ServerCause } from '../causes/server-cause.js';

/**
 * Error codes callers switch on. HTTP statuses are chosen from these in one place, at the
 * daemon's API edge; nobody branches on message text.
 */
export type ErrorCode =
  | 'NOT_FOUND'
  | 'INVALID_ARGUMENT'
  /** A request or message larger than its receiver takes: the caller must send less. */
  | 'PAYLOAD_TOO_LARGE'
  /** The resource exists but does not take that kind of request (an HTTP method it does not answer). */
  | 'METHOD_NOT_ALLOWED'
  | 'ALREADY_EXISTS'
  | 'FAILED_PRECONDITION'
  | 'TIMEOUT'
  | 'SERVER_UNAVAILABLE'
  | 'SERVER_EXITED'
  | 'NEEDS_SIGN_IN'
  /** Signed in, but the token lacks a scope this request needs (a 403 insufficient_scope). */
  | 'NEEDS_MORE_ACCESS'
  /** The caller did not show who it is (no or a wrong bearer token); unlike `NEEDS_SIGN_IN`, not an MCP server's OAuth. */
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'RESULT_TOO_LARGE'
  | 'CANCELLED'
  /** A write found no room on its disk (or the user's quota there); nothing was changed. */
  | 'NO_SPACE'
  | 'INTERNAL';

export class BlitzError extends Error {
  readonly code: ErrorCode;
  /** A finer reason, e.g. `MCP_SERVER_NOT_FOUND`. */
  readonly reason: string | undefined;
  /** Every problem, for `INVALID_ARGUMENT`. */
  readonly problems: readonly string[];
  /** Why a server failed, as facts, where the code alone does not say (see `causeOf`). */
  readonly serverCause: ServerCause | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { reason?: string; problems?: readonly string[]; cause?: unknown; serverCause?: ServerCause } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'BlitzError';
    this.code = code;
    this.reason = opts.reason;
    this.problems = opts.problems ?? [];
    this.serverCause = opts.serverCause;
  }
}

export function isBlitzError(err: unknown, code?: ErrorCode): err is BlitzError {
  return err instanceof BlitzError && (code === undefined || err.code === code);
}
