import { describe, expect, it } from 'vitest';
import { matchesServerUrl, needsRefresh, parseStoredCredentials, withNewTokens, type StoredCredentials } from './stored-credentials.js';

const T0 = 1_700_000_000_000;

function creds(lifetimeMs: number | undefined): StoredCredentials {
  return {
    version: 1,
    server: 'docs',
    serverUrl: 'https://mcp.example.com/mcp',
    authorizationServerUrl: 'https://auth.example.com/',
    client: { client_id: 'c1' },
    tokens: { access_token: 'a1', token_type: 'Bearer', refresh_token: 'r1' },
    obtainedAt: T0,
    ...(lifetimeMs === undefined ? {} : { expiresAt: T0 + lifetimeMs }),
  };
}

describe('needsRefresh', () => {
  it.each([
    ['an hour token, 31 s before expiry', 3_600_000, 3_600_000 - 31_000, false],
    ['an hour token, 30 s before expiry', 3_600_000, 3_600_000 - 30_000, true],
    ['an hour token, expired', 3_600_000, 3_600_001, true],
    ['a 2 s token, after 0.9 s', 2_000, 900, false],
    ['a 2 s token, halfway', 2_000, 1_000, true],
    ['no expiry', undefined, 10 * 3_600_000, false],
  ])('%s', (_name, lifetime, elapsed, expected) => {
    expect(needsRefresh(creds(lifetime), T0 + elapsed)).toBe(expected);
  });
});

describe('withNewTokens', () => {
  it('keeps the old refresh token when the answer brings none, and stamps the new expiry', () => {
    const next = withNewTokens(creds(1000), { access_token: 'a2', token_type: 'Bearer', expires_in: 60 }, T0 + 5_000);
    expect(next.tokens).toEqual({ access_token: 'a2', token_type: 'Bearer', expires_in: 60, refresh_token: 'r1' });
    expect(next.obtainedAt).toBe(T0 + 5_000);
    expect(next.expiresAt).toBe(T0 + 65_000);
  });

  it('takes a rotated refresh token and drops an expiry the answer no longer gives', () => {
    const next = withNewTokens(creds(1000), { access_token: 'a2', token_type: 'Bearer', refresh_token: 'r2' }, T0);
    expect(next.tokens.refresh_token).toBe('r2');
    expect(next.expiresAt).toBeUndefined();
  });
});

describe('parseStoredCredentials', () => {
  it('reads back what was written', () => {
    expect(parseStoredCredentials(JSON.stringify(creds(1000)))).toEqual(creds(1000));
  });

  it.each([
    ['not json', '{'],
    ['another version', JSON.stringify({ ...creds(1), version: 2 })],
    ['no access token', JSON.stringify({ ...creds(1), tokens: { token_type: 'Bearer' } })],
  ])('treats %s as absent', (_name, text) => {
    expect(parseStoredCredentials(text)).toBeUndefined();
  });
});

describe('matchesServerUrl', () => {
  it('matches the same URL without query or trailing slash, and nothing else', () => {
    expect(matchesServerUrl(creds(1), 'https://mcp.example.com/mcp/')).toBe(true);
    expect(matchesServerUrl(creds(1), 'https://mcp.example.com/mcp?x=1')).toBe(true);
    expect(matchesServerUrl(creds(1), 'https://other.example.com/mcp')).toBe(false);
    expect(matchesServerUrl(creds(1), 'https://mcp.example.com/v2/mcp')).toBe(false);
  });
});
