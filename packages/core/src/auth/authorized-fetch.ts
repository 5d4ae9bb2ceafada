import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { NeedsMoreAccess } from '../connection/http/http-failure.js';
import type { ServerSignIn } from './server-sign-in.js';

/**
 * A fetch for one signed-in server's MCP requests: it adds the token (refreshed ahead of
 * expiry) and, on a 401, retries once with a token someone saved meanwhile or a fresh
 * refresh. Doing this under the SDK transport, rather than through its auth provider, is what
 * lets concurrent requests share one refresh: the SDK runs a refresh per failed request, and
 * with rotating refresh tokens all but the first would be refused and sign the user out.
 * A 401 that no token cures goes up unchanged and becomes "needs sign-in"; a 403
 * insufficient_scope is thrown as `NeedsMoreAccess`, its scope kept for the next login.
 */
export function authorizedFetch(signIn: ServerSignIn, base: FetchLike): FetchLike {
  return async (url, init) => {
    const sent = await signIn.authorization();
    const first = await base(url, withAuthorization(init, sent));
    if (first.status === 403 && sent !== undefined) {
      const { error, scope } = extractWWWAuthenticateParams(first);
      if (error === 'insufficient_scope') {
        await first.body?.cancel().catch(() => {});
        // Step-up: remembered for the next login, and never retried here (only the user can grant it).
        await signIn.insufficientScope(scope ?? '');
        throw new NeedsMoreAccess(signIn.name, scope ?? '');
      }
    }
    if (first.status !== 401 || !replayable(init)) return first;
    const next = await signIn.rejected(sent);
    if (next === undefined || next === sent) return first;
    await first.body?.cancel().catch(() => {});
    return base(url, withAuthorization(init, next));
  };
}

function withAuthorization(init: RequestInit | undefined, authorization: string | undefined): RequestInit | undefined {
  if (authorization === undefined) return init;
  const headers = new Headers(init?.headers);
  headers.set('authorization', authorization);
  return { ...init, headers };
}

/** The SDK sends JSON-RPC bodies as strings; a stream could not be sent twice. */
function replayable(init: RequestInit | undefined): boolean {
  const body = init?.body;
  return body === undefined || body === null || typeof body === 'string';
}
