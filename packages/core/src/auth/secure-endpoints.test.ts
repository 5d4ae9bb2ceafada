import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchingIssuer, assertSecureDiscovery, noRedirectFetch } from './secure-endpoints.js';

describe('assertSecureDiscovery', () => {
  const metadata = (token: string) => ({
    issuer: 'https://auth.example.com',
    authorization_endpoint: 'https://auth.example.com/authorize',
    token_endpoint: token,
    response_types_supported: ['code'],
  });

  it('accepts https, and plain http to loopback', () => {
    expect(() =>
      assertSecureDiscovery('docs', {
        authorizationServerUrl: 'https://auth.example.com',
        authorizationServerMetadata: metadata('https://auth.example.com/token'),
      }),
    ).not.toThrow();
    expect(() =>
      assertSecureDiscovery('docs', {
        authorizationServerUrl: 'http://127.0.0.1:9/',
        authorizationServerMetadata: metadata('http://localhost:9/token'),
      }),
    ).not.toThrow();
  });

  it('refuses plain http elsewhere and credentials in a URL, naming the endpoint', () => {
    expect(() =>
      assertSecureDiscovery('docs', {
        authorizationServerUrl: 'https://auth.example.com',
        authorizationServerMetadata: metadata('http://auth.example.com/token'),
      }),
    ).toThrow(/the token endpoint of MCP server docs uses plain http to auth\.example\.com/);
    expect(() => assertSecureDiscovery('docs', { authorizationServerUrl: 'https://user:pw@auth.example.com' })).toThrow(
      /authorization server of MCP server docs must not contain credentials/,
    );
  });
});

describe('noRedirectFetch', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/moved')) res.writeHead(307, { location: '/elsewhere' }).end();
      else res.writeHead(200).end('here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses to follow the redirect of a token POST', async () => {
    await expect(noRedirectFetch(fetch)(`${base}/moved?code=secret`, { method: 'POST', body: 'grant_type=x' })).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
      reason: 'OAUTH_REDIRECT_REFUSED',
      message: `${base}/moved answered with a redirect (HTTP 307); Blitz follows no redirect while signing in`,
    });
  });

  it('passes other answers through', async () => {
    const response = await noRedirectFetch(fetch)(`${base}/token`, { method: 'POST', body: 'x' });
    expect(await response.text()).toBe('here');
  });
});

describe('assertMatchingIssuer', () => {
  const state = (from: string, issuer: string) => ({
    authorizationServerUrl: from,
    authorizationServerMetadata: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      response_types_supported: ['code'],
    },
  });

  it('accepts metadata naming the issuer it was fetched for, a trailing slash on one side aside', () => {
    expect(() => assertMatchingIssuer('docs', state('https://auth.example.com', 'https://auth.example.com'))).not.toThrow();
    expect(() => assertMatchingIssuer('docs', state('https://auth.example.com/', 'https://auth.example.com'))).not.toThrow();
    expect(() => assertMatchingIssuer('docs', state('https://auth.example.com/t1', 'https://auth.example.com/t1/'))).not.toThrow();
    expect(() => assertMatchingIssuer('docs', { authorizationServerUrl: 'https://auth.example.com' })).not.toThrow();
  });

  it('refuses metadata of another issuer (RFC 8414 §3.3), naming both', () => {
    expect(() => assertMatchingIssuer('docs', state('https://auth.example.com', 'https://attacker.example.com'))).toThrow(
      'the authorization server https://auth.example.com of MCP server docs publishes metadata for issuer "https://attacker.example.com"; Blitz will not sign in with metadata of another issuer',
    );
    expect(() => assertMatchingIssuer('docs', state('https://auth.example.com/t1', 'https://auth.example.com/t2'))).toThrow(
      /metadata for issuer "https:\/\/auth\.example\.com\/t2"/,
    );
  });
});
