import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { isBlitzError } from '../errors/blitz-error.js';
import { Redactor } from '../redact/redactor.js';

/** Shape rules only: an authorization server's error text should hold no token, but a message must never carry one. */
const shapes = new Redactor();

/** A failed OAuth request in a line: the OAuth error code and description, or the network failure. */
export function describeOAuthError(err: unknown): string {
  if (isBlitzError(err)) return err.message;
  if (err instanceof OAuthError) return shapes.redact(err.message ? `${err.errorCode}: ${err.message}` : err.errorCode);
  if (!(err instanceof Error)) return shapes.redact(String(err));
  const code = (err.cause as { code?: unknown } | undefined)?.code;
  return shapes.redact(typeof code === 'string' ? `${err.message} (${code})` : err.message);
}

/** The authorization server says the grant or the client is no good: only a new sign-in helps. */
export function isRejectedGrant(err: unknown): boolean {
  if (!(err instanceof OAuthError)) return false;
  return err.errorCode === 'invalid_grant' || err.errorCode === 'invalid_client' || err.errorCode === 'unauthorized_client';
}
