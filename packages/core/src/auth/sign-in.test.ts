import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthFixture } from '../../../../test/fixtures/oauth/oauth-server.mjs';
import { FakeClock } from '@blitz/clock';
import type { CredentialStore } from './credential-store.js';
import { signIn, SIGN_IN_TIMEOUT_MS } from './sign-in.js';
import type { ServerConfig } from '../config/server-config.js';
import { fileStore, httpServer, playBrowser, startSignIn } from '../testing/oauth-sign-in.js';

let fixture: OAuthFixture;
let store: CredentialStore;
let dir: string;

beforeEach(async () => {
  fixture = await startOAuthServer();
  ({ store, dir } = await fileStore());
});

afterEach(async () => {
  await fixture.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function start(clock: FakeClock, config = httpServer(fixture.url)) {
  return startSignIn(store, clock, config);
}

describe('signIn', () => {
  it('asks for PKCE S256 and a state, and registers a loopback redirect', async () => {
    const { done, authorizationUrl } = start(new FakeClock());
    const url = new URL(await authorizationUrl);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const callback = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
    expect((await fetch(callback)).status).toBe(200);
    const creds = await done;
    expect(creds).toMatchObject({ server: 'remote', serverUrl: fixture.url, resource: fixture.url });
    expect(await store.read('remote')).toEqual(creds);
  });

  it('gives up after 5 minutes with a clear message, storing nothing and closing its listener', async () => {
    const clock = new FakeClock();
    const { done, authorizationUrl } = start(clock);
    const redirect = new URL(await authorizationUrl).searchParams.get('redirect_uri')!;
    clock.advance(SIGN_IN_TIMEOUT_MS);
    await expect(done).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: 'sign-in to MCP server remote timed out: no answer from the browser within 5m; run blitz mcp login remote again',
    });
    expect(await store.read('remote')).toBeUndefined();
    await expect(fetch(redirect)).rejects.toThrow();
  });

  it('tells the authorization URL as it is made, and ends the wait when aborted, closing its listener', async () => {
    const abort = new AbortController();
    let told!: (url: string) => void;
    const authorizationUrl = new Promise<string>((resolve) => (told = resolve));
    const done = signIn({
      config: httpServer(fixture.url),
      store,
      clock: new FakeClock(),
      noBrowser: true,
      env: { DISPLAY: ':0' },
      print: () => undefined,
      onAuthorizationUrl: told,
      signal: abort.signal,
    });
    const redirect = new URL(await authorizationUrl).searchParams.get('redirect_uri')!;
    abort.abort();
    await expect(done).rejects.toMatchObject({ code: 'CANCELLED', message: 'sign-in to MCP server remote was cancelled' });
    expect(await store.read('remote')).toBeUndefined();
    await expect(fetch(redirect)).rejects.toThrow();
  });

  it('ends when the authorization server says no, and ignores a redirect from another attempt', async () => {
    const { done, authorizationUrl, lines } = start(new FakeClock());
    const url = new URL(await authorizationUrl);
    const redirect = url.searchParams.get('redirect_uri')!;
    const other = await fetch(`${redirect}?code=x&state=another-attempt`);
    expect(other.status).toBe(400);
    expect(lines.at(-1)).toMatch(/^Refused a redirect: that address is from another sign-in attempt/);
    await fetch(`${redirect}?error=access_denied&state=${url.searchParams.get('state')}`);
    await expect(done).rejects.toMatchObject({ code: 'PERMISSION_DENIED', reason: 'SIGN_IN_DENIED' });
  });

  it('refuses a plain-http authorization server override before any request', async () => {
    const config = httpServer(fixture.url, { authorizationServer: 'http://auth.example.com' });
    await expect(start(new FakeClock(), config).done).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
      reason: 'INSECURE_OAUTH_ENDPOINT',
    });
    expect(fixture.log()).toEqual([]);
  });
});

describe('signIn asks for the least it needs', () => {
  let guarded: OAuthFixture;
  afterEach(async () => {
    await guarded?.close();
  });

  async function scopesAskedFor(config: ServerConfig): Promise<{ asked: string | null; authorized: string[] }> {
    const { done, authorizationUrl } = startSignIn(store, new FakeClock(), config);
    const url = new URL(await authorizationUrl);
    await playBrowser(url.href);
    await done;
    const authorize = guarded.log().find((e) => e.kind === 'authorize');
    return { asked: url.searchParams.get('scope'), authorized: authorize && 'scopes' in authorize ? authorize.scopes : [] };
  }

  it('a server that lets initialize through and challenges tools/list: asks for the scope that challenge names', async () => {
    guarded = await startOAuthServer({
      openInitialize: true,
      requiredScopes: ['mcp:basic'],
      scopesSupported: ['mcp:basic', 'mcp:admin', 'files:write'],
    });
    expect(await scopesAskedFor(httpServer(guarded.url))).toEqual({ asked: 'mcp:basic', authorized: ['mcp:basic'] });
    // Probed as a client starts: initialize answered, tools/list challenged, both without a token.
    expect(
      guarded
        .log()
        .filter((e) => e.kind === 'mcp')
        .slice(0, 3),
    ).toEqual([
      { kind: 'mcp', method: 'initialize', status: 200, authorization: 'none' },
      { kind: 'mcp', method: 'notifications/initialized', status: 202, authorization: 'none' },
      { kind: 'mcp', method: 'tools/list', status: 401, authorization: 'none' },
    ]);
  });

  it('a challenge to initialize itself is the one used, and nothing more is probed', async () => {
    guarded = await startOAuthServer({ requiredScopes: ['mcp:basic'], scopesSupported: ['mcp:basic', 'mcp:admin'] });
    expect((await scopesAskedFor(httpServer(guarded.url))).asked).toBe('mcp:basic');
    expect(
      guarded
        .log()
        .filter((e) => e.kind === 'mcp')
        .map((e) => e.kind === 'mcp' && e.method),
    ).toEqual(['initialize']);
  });

  it('with no scope in any challenge, falls back to the resource metadata scopes_supported', async () => {
    guarded = await startOAuthServer({ openInitialize: true, scopesSupported: ['mcp:basic', 'mcp:admin'] });
    expect((await scopesAskedFor(httpServer(guarded.url))).asked).toBe('mcp:basic mcp:admin');
  });

  it('scopes configured in the oauth table win over the challenge', async () => {
    guarded = await startOAuthServer({ openInitialize: true, requiredScopes: ['mcp:basic'], scopesSupported: ['mcp:basic', 'mcp:admin'] });
    expect((await scopesAskedFor(httpServer(guarded.url, { scopes: ['mcp:admin'] }))).asked).toBe('mcp:admin');
  });
});
