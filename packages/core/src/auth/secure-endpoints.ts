import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { urlProblem } from '../config/url-rules.js';
import { BlitzError } from '../errors/blitz-error.js';

/**
 * Checks every OAuth endpoint discovery found: https (plain http only to loopback) and no
 * credentials in the URL, so no token or code ever travels in the clear or to a URL that
 * carries someone's password.
 */
export function assertSecureDiscovery(server: string, state: OAuthDiscoveryState): void {
  const m = state.authorizationServerMetadata;
  const endpoints: Array<[string, string | undefined]> = [
    ['authorization server', state.authorizationServerUrl],
    ['authorization endpoint', m?.authorization_endpoint],
    ['token endpoint', m?.token_endpoint],
    ['registration endpoint', m?.registration_endpoint],
  ];
  for (const [what, url] of endpoints) {
    if (url === undefined) continue;
    const problem = urlProblem(url);
    if (problem) {
      throw new BlitzError('FAILED_PRECONDITION', `the ${what} of MCP server ${server} ${problem}; Blitz will not sign in there`, {
        reason: 'INSECURE_OAUTH_ENDPOINT',
      });
    }
  }
}

/**
 * A fetch for OAuth requests that follows no redirect of a POST (registration, token
 * exchange, refresh): a redirected token request could carry a code, a verifier or a
 * refresh token somewhere else. GETs (metadata discovery) are left to the SDK, which follows
 * redirects within the same origin only.
 */
export function noRedirectFetch(base: FetchLike): FetchLike {
  return async (url, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method === 'GET') return asGlobalResponse(await base(url, init));
    const response = asGlobalResponse(await base(url, { ...init, redirect: 'manual' }));
    // Browsers' fetch hides a manual redirect as an opaque response with status 0.
    if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
      await response.body?.cancel().catch(() => {});
      const where = new URL(String(url));
      throw new BlitzError(
        'FAILED_PRECONDITION',
        `${where.origin}${where.pathname} answered with a redirect (HTTP ${response.status}); Blitz follows no redirect while signing in`,
        {
          reason: 'OAUTH_REDIRECT_REFUSED',
        },
      );
    }
    return response;
  };
}

/**
 * The SDK reads OAuth error bodies only from a `Response` of this realm (`instanceof`); the
 * undici package's fetch (our proxy support) returns its own class, whose `invalid_grant`
 * would otherwise read as an unknown server error.
 */
function asGlobalResponse(response: Response): Response {
  if (response instanceof Response) return response;
  // Typed again: TypeScript sees one Response class, so after the check it would be `never`.
  const foreign: Pick<Response, 'status' | 'statusText' | 'headers' | 'body'> = response;
  const noBody = foreign.status === 204 || foreign.status === 304 || (foreign.status >= 100 && foreign.status < 200);
  return new Response(noBody ? null : foreign.body, { status: foreign.status, statusText: foreign.statusText, headers: foreign.headers });
}
