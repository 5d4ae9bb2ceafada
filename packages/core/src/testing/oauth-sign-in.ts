/** Test support: a sign-in to the OAuth fixture in-process, the test playing the browser. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OAuthFixture } from '../../../../test/fixtures/oauth/oauth-server.mjs';
import type { Clock } from '@blitz/clock';
import type { OAuthConfig, ServerConfig } from '../config/server-config.js';
import { CredentialStore } from '../auth/credential-store.js';
import { signIn } from '../auth/sign-in.js';
import { serverConfig } from './server-config.js';
import type { StoredCredentials } from '../auth/stored-credentials.js';

export function httpServer(url: string, oauth?: OAuthConfig, name = 'remote'): ServerConfig {
  return serverConfig(name, {
    transport: { kind: 'http', url, headers: {} },
    timeoutSeconds: 30,
    source: { kind: 'global', file: 'settings.toml' },
    ...(oauth ? { oauth } : {}),
  });
}

/** A store in a fresh temp folder that never asks the OS keychain. */
export async function fileStore(): Promise<{ store: CredentialStore; dir: string; file: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-auth-'));
  const file = path.join(dir, 'state', 'secrets.json');
  const store = await CredentialStore.open({ paths: { secrets: file }, probe: async () => ({ ok: false, reason: 'tests use the file' }) });
  return { store, dir, file };
}

/** The browser's part: the fixture approves at once and redirects to our callback. */
export async function playBrowser(authorizationUrl: string): Promise<void> {
  const approve = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = approve.headers.get('location');
  if (!location) throw new Error(`authorize answered ${approve.status}`);
  await (await fetch(location)).text();
}

/** Starts a sign-in without a browser; hands back the authorization URL it printed, and what it printed. */
export function startSignIn(store: CredentialStore, clock: Clock, config: ServerConfig) {
  let printed!: (url: string) => void;
  const authorizationUrl = new Promise<string>((resolve) => (printed = resolve));
  const lines: string[] = [];
  const done = signIn({
    config,
    store,
    clock,
    noBrowser: true,
    env: { DISPLAY: ':0' },
    print: (text) => {
      lines.push(text);
      const url = /^\s+(http:\/\/\S+\/authorize\?\S+)$/m.exec(text)?.[1];
      if (url) printed(url);
    },
  });
  done.catch(() => {});
  return { done, authorizationUrl, lines };
}

export async function signInToFixture(
  fixture: OAuthFixture,
  store: CredentialStore,
  clock: Clock,
  config = httpServer(fixture.url),
): Promise<StoredCredentials> {
  const { done, authorizationUrl } = startSignIn(store, clock, config);
  void authorizationUrl.then(playBrowser);
  return done;
}
