import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BLITZ_CLIENT_METADATA } from '../../packages/core/src/auth/login-provider.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { startOAuthServer, type OAuthFixture } from '../fixtures/oauth/oauth-server.mjs';
import { REPO_ROOT, tempDir } from '../support/blitz-cli.js';
import { writeSettings } from '../support/daemon-process.js';
import { completeInBrowser, startLogin } from './login-process.js';

// docs/client-metadata.json: Blitz's client ID metadata document, shipped for whoever publishes
// Blitz to host (docs/oauth.md says how). It must say what Blitz does when it signs in, and an
// authorization server that takes metadata documents must accept Blitz's sign-in with it.
const DOCUMENT = path.join(REPO_ROOT, 'docs', 'client-metadata.json');
const PLACEHOLDER = 'https://YOUR-HOST/blitz/client-metadata.json';
const HOSTED = 'https://blitz.example.org/blitz/client-metadata.json';

const shipped = () => JSON.parse(fs.readFileSync(DOCUMENT, 'utf8')) as Record<string, unknown> & { redirect_uris: string[] };

let fixture: OAuthFixture | undefined;
let home: string;

beforeEach(() => {
  home = tempDir('blitz-cimd-');
});

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
});

describe("Blitz's client ID metadata document (docs/client-metadata.json)", () => {
  it('describes the client Blitz registers as, for the loopback redirect, its client_id a placeholder to replace', () => {
    expect(shipped()).toEqual({ client_id: PLACEHOLDER, ...BLITZ_CLIENT_METADATA, redirect_uris: ['http://127.0.0.1/callback'] });
  });

  it('hosted at its client_id, lets blitz mcp login sign in with no registration where the authorization server takes documents', async () => {
    fixture = await startOAuthServer({ cimd: true, metadataDocuments: { [HOSTED]: { ...shipped(), client_id: HOSTED } } });
    writeSettings(
      home,
      `[oauth]\nclient_metadata_url = "${HOSTED}"\n\n[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "remote"\nurl = "${fixture.url}"\n`,
    );
    const login = startLogin(home, 'remote');
    const page = await completeInBrowser(await login.authorizationUrl());
    expect(page.body).toContain('Blitz received the sign-in for MCP server remote');
    const result = await login.exit();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Client: the client ID metadata document ${HOSTED}.`);
    const log = fixture.log().filter((e) => e.kind !== 'mcp');
    expect(log.filter((e) => e.kind === 'register')).toEqual([]);
    expect(log.find((e) => e.kind === 'authorize')).toMatchObject({
      clientId: HOSTED,
      redirectUri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/),
    });
    expect(log.filter((e) => e.kind === 'token')).toEqual([
      expect.objectContaining({ grant: 'authorization_code', ok: true, clientId: HOSTED }),
    ]);
  });
});
