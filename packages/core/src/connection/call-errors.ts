import { ErrorCode as RpcErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { formatDelay } from '@blitz/clock';
import { causeOf, systemCause, type ServerCause } from '../causes/server-cause.js';
import type { BreakerOutcome } from '../breaker/breaker.js';
import { BlitzError, isBlitzError } from '../errors/blitz-error.js';
import { isUnauthorized, needsSignIn } from './http/http-failure.js';

/**
 * Sorts a failed request into what the breaker must count (transport failures: timeouts,
 * exits, connection errors) and what it must not (the server answered, even with an
 * error; the caller cancelled; the user must sign in).
 */
export function classifyFailure(
  err: unknown,
  what: { server: string; label: string; timeoutMs: number; cancelled: boolean },
): { error: unknown; transportFailure: boolean } {
  if (what.cancelled) return { error: new BlitzError('CANCELLED', `${what.label} was cancelled`, { cause: err }), transportFailure: false };
  // A 401 no token could cure: the user must sign in, which no retry replaces.
  if (isUnauthorized(err)) return { error: needsSignIn(what.server, err), transportFailure: false };
  if (isBlitzError(err)) {
    const counts = err.code === 'TIMEOUT' || err.code === 'SERVER_EXITED' || err.code === 'SERVER_UNAVAILABLE';
    return { error: err, transportFailure: counts };
  }
  if (err instanceof McpError) {
    if (err.code === RpcErrorCode.RequestTimeout) {
      const after = formatDelay(what.timeoutMs);
      return {
        error: new BlitzError('TIMEOUT', `${what.label} timed out after ${after}`, {
          cause: err,
          serverCause: { code: 'CALL_TIMEOUT', after },
        }),
        transportFailure: true,
      };
    }
    // Our stdio transport answers requests in flight this way when the server process ends.
    const data = err.data as { code?: unknown; serverCause?: ServerCause } | undefined;
    // Our stdio transport answers this way for a message past `[hub] max_result_mb`; the server is fine.
    if (data?.code === 'RESULT_TOO_LARGE')
      return {
        error: new BlitzError('RESULT_TOO_LARGE', err.message.replace(/^MCP error -?\d+: /, ''), { cause: err }),
        transportFailure: false,
      };
    if (err.code === RpcErrorCode.ConnectionClosed && (data?.code === 'SERVER_EXITED' || data?.code === 'SERVER_UNAVAILABLE')) {
      const serverCause = data.serverCause;
      return {
        error: new BlitzError(data.code, err.message.replace(/^MCP error -?\d+: /, ''), {
          cause: err,
          ...(serverCause ? { serverCause } : {}),
        }),
        transportFailure: true,
      };
    }
    if (err.code === RpcErrorCode.ConnectionClosed) {
      return {
        error: new BlitzError('SERVER_UNAVAILABLE', `MCP server ${what.server} closed the connection during ${what.label}`, {
          cause: err,
          serverCause: { code: 'CONNECTION_CLOSED' },
        }),
        transportFailure: true,
      };
    }
    return { error: err, transportFailure: false };
  }
  const message = err instanceof Error ? err.message : String(err);
  const serverCause = systemCause(err);
  return {
    error: new BlitzError('SERVER_UNAVAILABLE', `failed to call MCP server ${what.server}: ${message}`, {
      cause: err,
      ...(serverCause ? { serverCause } : {}),
    }),
    transportFailure: true,
  };
}

/** A failure the breaker counts: its message, and its facts for the words the user sees. */
export function failureOf(error: unknown): Exclude<BreakerOutcome, 'success'> {
  if (isBlitzError(error)) return { failure: error.message, cause: causeOf(error) };
  const message = error instanceof Error ? error.message : String(error);
  return { failure: message, cause: { code: 'OTHER', message } };
}
