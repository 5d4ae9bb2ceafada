import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthFixture } from '../fixtures/oauth/oauth-server.mjs';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { writeSettings } from '../support/daemon-process.js';
import { completeInBrowser, startLogin, type LoginProcess } from './login-process.js';

// `blitz mcp login` against a real authorization server (test/fixtures/oauth) that answers as the
// 2026-07-28 revision's checks need: RFC 9207 `iss` on the authorization response (sent right,
// wrong, with a trailing slash, or not at all; advertised in the metadata or not), metadata naming
// another issuer (RFC 8414 §3.3), and what dynamic registration sends.
let fixture: OAuthFixture;
let home: string;
let logins: LoginProcess[];

beforeEach(() => {
  home = tempDir('blitz-oauth-iss-');
  logins = [];
});

afterEach(async () => {
  for (const login of logins) if (login.child.exitCode === null) login.child.kill();
  await Promise.all(logins.map((l) => l.exit()));
  await fixture?.close();
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
});

async function setUp(server: Parameters<typeof startOAuthServer>[0]): Promise<void> {
  fixture = await startOAuthServer(server);
  writeSettings(home, `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "remote"\nurl = "${fixture.url}"\n`);
}

function login(): LoginProcess {
  const process = startLogin(home, 'remote');
  logins.push(process);
  return process;
}

/** What the authorization server was asked, in order (the MCP requests aside). */
const asked = () =>
  fixture
    .log()
    .filter((e) => e.kind !== 'mcp')
    .map((e) => (e.kind === 'token' ? `token:${e.grant}` : e.kind));

describe('blitz mcp login checks the authorization response’s iss (RFC 9207)', () => {
  it('signs in when the metadata advertises iss and the answer carries the issuer', async () => {
    await setUp({ iss: 'correct', issAdvertised: true });
    const process = login();
    const page = await completeInBrowser(await process.authorizationUrl());
    expect(page.body).toContain('Blitz received the sign-in for MCP server remote');
    expect((await process.exit()).code).toBe(0);
    expect(asked()).toEqual(['register', 'authorize', 'token:authorization_code']);
  });

  it('signs in when iss is neither advertised nor sent', async () => {
    await setUp({ iss: 'omit' });
    const process = login();
    await completeInBrowser(await process.authorizationUrl());
    expect((await process.exit()).code).toBe(0);
    expect(asked()).toEqual(['register', 'authorize', 'token:authorization_code']);
  });

  it.each([
    [
      'advertised and missing',
      { iss: 'omit', issAdvertised: true },
      'the answer carries no iss, which authorization server http://127.0.0.1:PORT/ says it always sends (RFC 9207)',
    ],
    [
      'another issuer, advertised',
      { iss: 'wrong', issAdvertised: true },
      'the answer comes from issuer "https://evil.example.com", not from "http://127.0.0.1:PORT/"',
    ],
    [
      'another issuer, not advertised',
      { iss: 'wrong' },
      'the answer comes from issuer "https://evil.example.com", not from "http://127.0.0.1:PORT/"',
    ],
    [
      'the issuer less its trailing slash (no normalisation)',
      { iss: 'trailing-slash', issAdvertised: true },
      'the answer comes from issuer "http://127.0.0.1:PORT", not from "http://127.0.0.1:PORT/"',
    ],
  ] as const)('ends the sign-in, its code unused, when iss is %s', async (_name, server, why) => {
    await setUp(server);
    const expected = why.replaceAll('PORT', String(fixture.port));
    const process = login();
    const page = await completeInBrowser(await process.authorizationUrl());
    expect(page.status).toBe(400);
    expect(page.body).toContain('Not signed in');
    const result = await process.exit();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`sign-in to MCP server remote was refused: ${expected}`);
    expect(asked()).toEqual(['register', 'authorize']);
    expect(fs.existsSync(`${home}/state/secrets.json`) ? fs.readFileSync(`${home}/state/secrets.json`, 'utf8') : '').not.toContain(
      'mcp-oauth-remote',
    );
  });
});

describe('blitz mcp login and the authorization server’s metadata', () => {
  it('refuses metadata naming another issuer (RFC 8414 §3.3) before registering or sending anyone to sign in', async () => {
    await setUp({ metadataIssuer: 'https://attacker.example.com' });
    const result = await login().exit();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `the authorization server http://127.0.0.1:${fixture.port}/ of MCP server remote publishes metadata for issuer "https://attacker.example.com"; Blitz will not sign in with metadata of another issuer`,
    );
    expect(result.stdout + result.stderr).not.toContain('/authorize?');
    expect(asked()).toEqual([]);
  });

  it('registers as a native application (SEP-837), public, for the loopback redirect', async () => {
    await setUp({});
    const process = login();
    await completeInBrowser(await process.authorizationUrl());
    expect((await process.exit()).code).toBe(0);
    expect(fixture.log().find((e) => e.kind === 'register')).toMatchObject({
      applicationType: 'native',
      redirectUris: [expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)],
    });
  });
});
