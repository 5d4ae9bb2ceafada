import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthFixture } from '../../../../test/fixtures/oauth/oauth-server.mjs';
import { FakeClock } from '@blitz/clock';
import { authorizedFetch } from './authorized-fetch.js';
import type { CredentialStore } from './credential-store.js';
import { noRedirectFetch } from './secure-endpoints.js';
import { ServerSignIn } from './server-sign-in.js';
import { fileStore, httpServer, signInToFixture } from '../testing/oauth-sign-in.js';

let fixture: OAuthFixture;
let store: CredentialStore;
let dir: string;
let clock: FakeClock;
let forgotten: string[];
let secrets: Set<string>;

beforeEach(async () => {
  fixture = await startOAuthServer({ accessTtlSeconds: 3600 });
  ({ store, dir } = await fileStore());
  clock = new FakeClock(Date.now());
  forgotten = [];
  secrets = new Set();
});

afterEach(async () => {
  await fixture.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function session(config = httpServer(fixture.url), tokenFetch: typeof fetch = fetch): ServerSignIn {
  return new ServerSignIn(config, {
    store: async () => store,
    clock,
    fetch: noRedirectFetch(tokenFetch),
    onSecrets: (values) => values.forEach((v) => secrets.add(v)),
    onForgotten: (server, why) => forgotten.push(`${server}: ${why}`),
    warn: () => {},
  });
}

const grants = (grant: string) => fixture.log().filter((e) => e.kind === 'token' && e.grant === grant);

function initialize(mcpFetch: typeof fetch): Promise<Response> {
  return mcpFetch(fixture.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
}

describe('ServerSignIn', () => {
  it('sends the stored token and tells the redactor about it', async () => {
    const creds = await signInToFixture(fixture, store, clock);
    expect(await session().authorization()).toBe(`Bearer ${creds.tokens.access_token}`);
    expect(secrets).toEqual(new Set([creds.tokens.access_token, creds.tokens.refresh_token]));
  });

  it('refreshes 30 s before expiry, once for every request waiting on it, and saves the new tokens', async () => {
    const creds = await signInToFixture(fixture, store, clock);
    const s = session();
    clock.advance(3_600_000 - 31_000);
    expect(await s.authorization()).toBe(`Bearer ${creds.tokens.access_token}`);
    clock.advance(2_000);
    const headers = await Promise.all(Array.from({ length: 5 }, () => s.authorization()));
    expect(new Set(headers).size).toBe(1);
    expect(headers[0]).not.toBe(`Bearer ${creds.tokens.access_token}`);
    expect(grants('refresh_token')).toEqual([expect.objectContaining({ ok: true })]);
    const saved = await store.read('remote');
    expect(`Bearer ${saved!.tokens.access_token}`).toBe(headers[0]);
    expect(saved!.tokens.refresh_token).not.toBe(creds.tokens.refresh_token);
  });

  it('on a 401 refreshes once for all the requests that got it, and retries each with the new token', async () => {
    await signInToFixture(fixture, store, clock);
    const s = session();
    const mcpFetch = authorizedFetch(s, fetch) as typeof fetch;
    expect((await initialize(mcpFetch)).status).toBe(200);
    fixture.expireAccessTokens();
    // With rotating refresh tokens, a second refresh would be refused and sign the user out.
    const answers = await Promise.all(Array.from({ length: 4 }, () => initialize(mcpFetch)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(grants('refresh_token')).toEqual([expect.objectContaining({ ok: true })]);
    expect(fixture.log().filter((e) => e.kind === 'authorize')).toHaveLength(1);
  });

  it('uses a token another process refreshed meanwhile instead of refreshing again', async () => {
    await signInToFixture(fixture, store, clock);
    const daemon = session();
    const other = session();
    const oldHeader = await daemon.authorization();
    fixture.expireAccessTokens();
    expect(await other.rejected(oldHeader)).not.toBe(oldHeader);
    expect(grants('refresh_token')).toHaveLength(1);
    const next = await daemon.rejected(oldHeader);
    expect(next).toBe(await other.authorization());
    expect(grants('refresh_token')).toHaveLength(1);
  });

  it('forgets the sign-in when the refresh is refused (invalid_grant), and says why', async () => {
    await signInToFixture(fixture, store, clock);
    const s = session();
    const sent = await s.authorization();
    fixture.revokeAll();
    expect(await s.rejected(sent)).toBeUndefined();
    expect(await store.read('remote')).toBeUndefined();
    expect(await s.authorization()).toBeUndefined();
    expect(forgotten).toEqual([expect.stringMatching(/^remote: the authorization server refused the refresh: invalid_grant/)]);
    expect(grants('refresh_token')).toEqual([expect.objectContaining({ ok: false })]);
  });

  it('never sends the tokens to another URL than the one signed in to', async () => {
    await signInToFixture(fixture, store, clock);
    expect(await session(httpServer(`${fixture.origin}/other-mcp`)).authorization()).toBeUndefined();
  });

  it('does not write back a refresh that finished after a logout', async () => {
    await signInToFixture(fixture, store, clock);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const refreshStarted = new Promise<void>((resolve) => (started = resolve));
    const s = session(httpServer(fixture.url), async (url, init) => {
      started();
      await held;
      return fetch(url, init);
    });
    const sent = await s.authorization();
    fixture.expireAccessTokens();
    const refreshing = s.rejected(sent);
    await refreshStarted;
    await store.forget('remote');
    s.invalidate();
    release();
    expect(await refreshing).toBeUndefined();
    expect(await store.read('remote')).toBeUndefined();
  });
});
