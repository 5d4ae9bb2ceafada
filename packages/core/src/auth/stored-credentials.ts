import type { AuthorizationServerMetadata, OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** The keychain service every Blitz secret is kept under. */
export const SECRET_SERVICE = 'blitz';

/** The keychain account (and file key) of one server's sign-in. */
export function accountFor(server: string): string {
  return `mcp-oauth-${server}`;
}

/**
 * One server's sign-in, kept as one JSON value (MCP-38): the client registration, the
 * endpoints found by discovery (so a refresh needs no discovery), the tokens and their expiry.
 */
export interface StoredCredentials {
  version: 1;
  server: string;
  /** The MCP URL signed in to: the tokens are sent to this URL only, never to a changed one. */
  serverUrl: string;
  authorizationServerUrl: string;
  authorizationServerMetadata?: AuthorizationServerMetadata;
  /** The RFC 8707 resource indicator sent at sign-in, sent again with each refresh. */
  resource?: string;
  /** A pre-registered client is kept by id only: its secret stays in the environment. */
  client: OAuthClientInformationMixed;
  /** Where the client came from (absent in sign-ins kept before it was recorded). */
  clientSource?: ClientSource;
  tokens: OAuthTokens;
  /** When the tokens were obtained and when the access token expires (epoch ms). */
  obtainedAt: number;
  expiresAt?: number;
  /** Scopes a server asked for since (403 insufficient_scope): the next login asks for them too. */
  challengedScope?: string;
}

/** Space-separated scopes, each once, in order of first appearance. */
export function scopeUnion(...scopes: Array<string | undefined>): string {
  return [...new Set(scopes.flatMap((s) => (s ?? '').split(' ')).filter((s) => s !== ''))].join(' ');
}

/**
 * The client a sign-in used, in the order Blitz tries them: the `client_id` of the server's
 * `oauth` table, a client ID metadata document (`client_metadata_url`) where the
 * authorization server supports them, else one registered on the spot.
 */
export type ClientSource = 'preRegistered' | 'metadataDocument' | 'dynamicRegistration';

/** `blitz mcp login`'s words for it. */
export function describeClientSource(creds: StoredCredentials): string {
  const id = creds.client.client_id;
  switch (creds.clientSource) {
    case 'preRegistered':
      return `the pre-registered client ${id} (oauth.client_id)`;
    case 'metadataDocument':
      return `the client ID metadata document ${id}`;
    case 'dynamicRegistration':
    case undefined:
      return `a client registered on the spot (dynamic client registration), ${id}`;
    default: {
      const _exhaustive: never = creds.clientSource;
      return _exhaustive;
    }
  }
}

/** The most a token is refreshed ahead of its expiry. */
export const REFRESH_AHEAD_MS = 30_000;

/**
 * Whether the access token is due for a refresh: 30 s before it expires, or halfway
 * through its life when it lives under a minute, so a short-lived token is not refreshed
 * before every single request.
 */
export function needsRefresh(creds: StoredCredentials, now: number): boolean {
  if (creds.expiresAt === undefined) return false;
  const ahead = Math.min(REFRESH_AHEAD_MS, Math.max(0, creds.expiresAt - creds.obtainedAt) / 2);
  return now >= creds.expiresAt - ahead;
}

export function isExpired(creds: StoredCredentials, now: number): boolean {
  return creds.expiresAt !== undefined && now >= creds.expiresAt;
}

/** The credentials after a token response: a refresh that returns no new refresh token keeps the old one. */
export function withNewTokens(creds: StoredCredentials, tokens: OAuthTokens, now: number): StoredCredentials {
  const next: StoredCredentials = {
    ...creds,
    tokens: { ...tokens, refresh_token: tokens.refresh_token ?? creds.tokens.refresh_token },
    obtainedAt: now,
  };
  if (next.tokens.refresh_token === undefined) delete next.tokens.refresh_token;
  if (tokens.expires_in === undefined) delete next.expiresAt;
  else next.expiresAt = now + tokens.expires_in * 1000;
  return next;
}

/** Whether these credentials were made for this URL (compared without query or fragment). */
export function matchesServerUrl(creds: StoredCredentials, url: string): boolean {
  return normalizeUrl(creds.serverUrl) === normalizeUrl(url);
}

function normalizeUrl(text: string): string {
  try {
    const u = new URL(text);
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return text;
  }
}

/** The secrets inside, for the redactor. */
export function secretsOf(creds: StoredCredentials): string[] {
  const values = [creds.tokens.access_token, creds.tokens.refresh_token, creds.tokens.id_token, creds.client.client_secret];
  return values.filter((v): v is string => typeof v === 'string' && v !== '');
}

/** Parses a stored value; undefined when it is not a sign-in we wrote (it is then treated as absent). */
export function parseStoredCredentials(text: string): StoredCredentials | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value.version !== 1) return undefined;
  const { server, serverUrl, authorizationServerUrl, client, tokens, obtainedAt, expiresAt } = value;
  if (typeof server !== 'string' || typeof serverUrl !== 'string' || typeof authorizationServerUrl !== 'string') return undefined;
  if (!isRecord(client) || typeof client.client_id !== 'string') return undefined;
  if (!isRecord(tokens) || typeof tokens.access_token !== 'string' || typeof tokens.token_type !== 'string') return undefined;
  if (typeof obtainedAt !== 'number' || (expiresAt !== undefined && typeof expiresAt !== 'number')) return undefined;
  return value as unknown as StoredCredentials;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
