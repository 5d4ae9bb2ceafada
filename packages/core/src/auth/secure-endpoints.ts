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
 * RFC 8414 §3.3: the authorization server's metadata must name as its `issuer` the identifier
 * its well-known address was built from; metadata claiming another (someone else's document, a
 * mix-up) is not used, so no registration, authorization or token request goes to its endpoints.
 * One leniency: a trailing slash on one side only (the SDK writes the server's own origin with one
 * when no authorization server is advertised, and resource metadata often lists an issuer so).
 */
export function assertMatchingIssuer(server: string, state: OAuthDiscoveryState): void {
  const issuer = state.authorizationServerMetadata?.issuer;
  const from = state.authorizationServerUrl;
  if (issuer === undefined || issuer === from || `${issuer}/` === from || issuer === `${from}/`) return;
  throw new BlitzError(
    'FAILED_PRECONDITION',
    `the authorization server ${from} of MCP server ${server} publishes metadata for issuer ${JSON.stringify(issuer)}; Blitz will not sign in with metadata of another issuer`,
    { reason: 'ISSUER_MISMATCH' },
  );
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
