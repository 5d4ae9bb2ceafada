import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode as RpcErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { formatDelay } from '@blitz/clock';
import { systemCause } from '../../causes/server-cause.js';
import { BlitzError, isBlitzError } from '../../errors/blitz-error.js';

/**
 * The server wants credentials we do not have: a 401 with no auth provider surfaces as a
 * `StreamableHTTPError` 401, one with a provider that has no usable token as
 * `UnauthorizedError`.
 */
export function isUnauthorized(err: unknown): boolean {
  return err instanceof UnauthorizedError || (err instanceof StreamableHTTPError && err.code === 401);
}

export function needsSignIn(server: string, cause?: unknown): BlitzError {
  return new BlitzError('NEEDS_SIGN_IN', `MCP server ${server} needs sign-in: run blitz mcp login ${server}`, { cause });
}

/** Signed in, but the server wants a scope the token lacks: the scope it named, for the status and the next login. */
export class NeedsMoreAccess extends BlitzError {
  readonly scope: string;

  constructor(server: string, scope: string) {
    const asked = scope ? ` (scope "${scope}")` : '';
    super('NEEDS_MORE_ACCESS', `MCP server ${server} needs more access${asked}: run blitz mcp login ${server} to ask for it`, {
      reason: 'INSUFFICIENT_SCOPE',
    });
    this.scope = scope;
  }
}

export function initializeTimeout(server: string, deadlineMs: number, cause?: unknown): BlitzError {
  const after = formatDelay(deadlineMs);
  return new BlitzError('TIMEOUT', `MCP server ${server} did not answer initialize within ${after}`, {
    cause,
    serverCause: { code: 'START_TIMEOUT', phase: 'initialize', after },
  });
}

/**
 * Turns whatever the handshake threw into a coded error. Messages name the server and the
 * URL without its query (where tokens sometimes hide) and never quote the response body.
 */
export function connectFailure(server: string, url: string, deadlineMs: number, err: unknown): BlitzError {
  if (isBlitzError(err)) return err;
  if (isUnauthorized(err)) return needsSignIn(server, err);
  if (err instanceof McpError && err.code === RpcErrorCode.RequestTimeout) return initializeTimeout(server, deadlineMs, err);
  const where = safeUrl(url);
  if (err instanceof StreamableHTTPError) {
    return new BlitzError('SERVER_UNAVAILABLE', `MCP server ${server} at ${where} refused initialize: HTTP ${err.code}`, {
      cause: err,
      serverCause: { code: 'HTTP_STATUS', status: err.code ?? 0, where },
    });
  }
  const serverCause = systemCause(err);
  return new BlitzError('SERVER_UNAVAILABLE', `MCP server ${server} at ${where} failed to initialize: ${describe(err)}`, {
    cause: err,
    ...(serverCause ? { serverCause } : {}),
  });
}

function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? `${err.message} (${code})` : err.message;
}
