import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { BlitzError, isBlitzError } from '../errors/blitz-error.js';
import { describeOAuthError } from './describe-oauth-error.js';

/** What the server's first `WWW-Authenticate` challenge said; empty when it challenged nothing. */
export interface Challenge {
  resourceMetadataUrl?: URL;
  scope?: string;
}

/**
 * Least privilege at login: asks the server without a token the way a client would start,
 * an `initialize` and then a `tools/list`, and returns the first challenge (401, or 403 with
 * `insufficient_scope`). A server that lets `initialize` through and challenges only
 * `tools/list` names there the scope a client really needs.
 */
export async function probeChallenge(name: string, url: string, headers: Record<string, string>, fetchFn: FetchLike): Promise<Challenge> {
  const base = { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = await send(name, url, fetchFn, base, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'blitz-login', version: '0' } },
  });
  if (!initialize) return {};
  const challenged = challengeOf(initialize);
  if (challenged || !initialize.ok) return challenged ?? {};

  const session = initialize.headers.get('mcp-session-id');
  const next = { ...base, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION, ...(session ? { 'mcp-session-id': session } : {}) };
  try {
    await send(name, url, fetchFn, next, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const list = await send(name, url, fetchFn, next, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    return (list && challengeOf(list)) ?? {};
  } finally {
    // A stateful server gets its session back; whether it takes it does not matter.
    if (session)
      await fetchFn(url, { method: 'DELETE', headers: next })
        .then(
          (r) => r.body?.cancel(),
          () => undefined,
        )
        .catch(() => undefined);
  }
}

/** The answer with its body discarded; undefined when the server redirected (no challenge there: sign in through discovery). */
async function send(
  name: string,
  url: string,
  fetchFn: FetchLike,
  headers: Record<string, string>,
  body: unknown,
): Promise<Response | undefined> {
  let response: Response;
  try {
    response = await fetchFn(url, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (err) {
    if (isBlitzError(err) && err.reason === 'OAUTH_REDIRECT_REFUSED') return undefined;
    if (isBlitzError(err)) throw err;
    throw new BlitzError('SERVER_UNAVAILABLE', `cannot reach MCP server ${name}: ${describeOAuthError(err)}`, { cause: err });
  }
  await response.body?.cancel().catch(() => {});
  return response;
}

function challengeOf(response: Response): Challenge | undefined {
  const is403Scope = response.status === 403 && extractWWWAuthenticateParams(response).error === 'insufficient_scope';
  if (response.status !== 401 && !is403Scope) return undefined;
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
}
