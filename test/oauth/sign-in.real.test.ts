import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthFixture } from '../fixtures/oauth/oauth-server.mjs';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';
import { authorize, completeInBrowser, startLogin, type LoginProcess } from './login-process.js';

const PRE_SECRET = 'pre-registered-secret-5f1c9e';

let fixture: OAuthFixture;
let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;
let logins: LoginProcess[];

beforeEach(() => {
  home = tempDir('blitz-oauth-');
  workspace = tempDir('blitz-oauth-ws-');
  logins = [];
});

afterEach(async () => {
  for (const login of logins) if (login.child.exitCode === null) login.child.kill();
  await Promise.all(logins.map((l) => l.exit()));
  if (daemon) await daemon.stop();
  daemon = undefined;
  await fixture?.close();
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

async function setUp(
  opts: {
    oauth?: string;
    ttl?: number;
    clients?: Array<{ client_id: string; client_secret?: string }>;
    server?: Parameters<typeof startOAuthServer>[0];
    blitzOAuth?: string;
  } = {},
): Promise<void> {
  fixture = await startOAuthServer({ accessTtlSeconds: opts.ttl ?? 3600, clients: opts.clients ?? [], ...opts.server });
  const top = opts.blitzOAuth ? `[oauth]\n${opts.blitzOAuth}\n` : '';
  writeSettings(
    home,
    `${top}[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "remote"\nurl = "${fixture.url}"\nauto_approve = true\n${opts.oauth ?? ''}`,
  );
}

function login(env?: NodeJS.ProcessEnv, args?: string[]): LoginProcess {
  const process = startLogin(home, 'remote', { ...(env ? { env } : {}), ...(args ? { args } : {}) });
  logins.push(process);
  return process;
}

/** A whole login with the test as the browser. */
async function signIn(env?: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  const process = login(env);
  const page = await completeInBrowser(await process.authorizationUrl());
  expect(page.body).toContain('Blitz received the sign-in for MCP server remote');
  const result = await process.exit();
  expect(result.code, result.stderr).toBe(0);
  return result;
}

function secretsFile(): { mode: number; secrets: Record<string, string> } {
  const file = path.join(home, 'state', 'secrets.json');
  return {
    mode: fs.statSync(file).mode & 0o777,
    secrets: (JSON.parse(fs.readFileSync(file, 'utf8')) as { secrets: Record<string, string> }).secrets,
  };
}

function stored(): { tokens: { access_token: string; refresh_token: string }; client: Record<string, unknown> } | undefined {
  const value = secretsFile().secrets['mcp-oauth-remote'];
  return value === undefined ? undefined : JSON.parse(value);
}

async function connectRemote() {
  const ws = await daemon!.client.openWorkspace(workspace);
  const servers = await daemon!.client.listWorkspaceServers(ws.id, { connect: true });
  return { ws, remote: servers.find((s) => s.name === 'remote')! };
}

const count = (kind: string, grant?: string) =>
  fixture.log().filter((e) => e.kind === kind && (grant === undefined || ('grant' in e && e.grant === grant))).length;

describe('blitz mcp login', () => {
  it('signs in with dynamic registration and, with no keychain answering, keeps it in a 0600 file and says so', async () => {
    await setUp();
    const { stdout } = await signIn();
    expect(stdout).toMatch(
      /^Signed in to MCP server remote\. The sign-in is kept in .*secrets\.json \(mode 0600\), since no OS keychain answered/m,
    );
    expect(
      fixture
        .log()
        .map((e) => (e.kind === 'token' ? `${e.kind}:${e.grant}:${e.ok}` : e.kind))
        .filter((k) => k !== 'mcp'),
    ).toEqual(['register', 'authorize', 'token:authorization_code:true']);
    const file = secretsFile();
    expect(file.mode).toBe(0o600);
    expect(Object.keys(file.secrets)).toEqual(['mcp-oauth-remote']);
    expect(stored()).toMatchObject({ version: 1, server: 'remote', serverUrl: fixture.url, tokens: { token_type: 'Bearer' } });

    const list = await runBlitz(['mcp', 'list'], { home });
    expect(list.stdout).toMatch(/^remote\s+http\s+\S+\s+enabled, signed in$/m);
    expect(list.stdout).toMatch(/\(sign-ins are kept in .*secrets\.json \(mode 0600\), since no OS keychain answered/);
    const json = JSON.parse((await runBlitz(['mcp', 'list', '--json'], { home })).stdout) as Array<{ signedIn?: boolean }>;
    expect(json[0]!.signedIn).toBe(true);
    const doctor = await runBlitz(['doctor'], { home });
    expect(doctor.stdout).toMatch(
      /^warn {2}keychain: no OS keychain answered \(.*\): sign-ins are kept in .*secrets\.json \(mode 0600\)$/m,
    );
  });

  it('uses a pre-registered client from the oauth table, its secret from the environment and never stored', async () => {
    await setUp({
      clients: [{ client_id: 'blitz-pre', client_secret: PRE_SECRET }],
      oauth: `[mcp.servers.oauth]\nclient_id = "blitz-pre"\nclient_secret = "\${PRE_SECRET}"\nscopes = ["tools"]\n`,
    });
    const env = { PRE_SECRET };
    await signIn(env);
    expect(count('register')).toBe(0);
    expect(fixture.log().filter((e) => e.kind === 'token')).toEqual([
      expect.objectContaining({ grant: 'authorization_code', ok: true, clientId: 'blitz-pre' }),
    ]);
    expect(stored()!.client).toMatchObject({ client_id: 'blitz-pre' });
    expect(fs.readFileSync(path.join(home, 'state', 'secrets.json'), 'utf8')).not.toContain(PRE_SECRET);

    // The daemon refreshes with the same client, its secret again from the environment.
    daemon = await startDaemonProcess(home, env);
    expect((await connectRemote()).remote.state).toBe('connected');
    fixture.expireAccessTokens();
    const { ws } = await connectRemote();
    await daemon.client.restartServer(ws.id, 'remote');
    expect((await connectRemote()).remote.state).toBe('connected');
    expect(fixture.log().filter((e) => e.kind === 'token' && e.grant === 'refresh_token')).toEqual([
      expect.objectContaining({ ok: true, clientId: 'blitz-pre' }),
    ]);
  });

  describe('the client: pre-registered, else a client ID metadata document where supported, else dynamic registration', () => {
    const DOC = 'https://blitz.example/oauth/client.json';
    const documents = { [DOC]: { client_name: 'Blitz', redirect_uris: ['http://127.0.0.1/callback'] } };
    const authorizedClient = () => fixture.log().flatMap((e) => (e.kind === 'authorize' ? [e.clientId] : []));

    it("uses the server's client_metadata_url as the client ID where the authorization server supports it, registers nothing, and says so", async () => {
      await setUp({ server: { cimd: true, metadataDocuments: documents }, oauth: `[mcp.servers.oauth]\nclient_metadata_url = "${DOC}"\n` });
      const { stdout } = await signIn();
      expect(stdout).toContain(`Client: the client ID metadata document ${DOC}.`);
      expect(count('register')).toBe(0);
      expect(count('metadata-document')).toBeGreaterThan(0);
      expect(authorizedClient()).toEqual([DOC]);
      expect(stored()!.client).toMatchObject({ client_id: DOC });
      expect(fixture.log().filter((e) => e.kind === 'token')).toEqual([
        expect.objectContaining({ grant: 'authorization_code', ok: true, clientId: DOC }),
      ]);
    });

    it('uses the Blitz-wide [oauth] client_metadata_url when the server names none', async () => {
      await setUp({ server: { cimd: true, metadataDocuments: documents }, blitzOAuth: `client_metadata_url = "${DOC}"` });
      const { stdout } = await signIn();
      expect(stdout).toContain(`Client: the client ID metadata document ${DOC}.`);
      expect(authorizedClient()).toEqual([DOC]);
    });

    it('falls back to dynamic registration when the authorization server does not advertise metadata documents', async () => {
      await setUp({ server: { metadataDocuments: documents }, blitzOAuth: `client_metadata_url = "${DOC}"` });
      const { stdout } = await signIn();
      expect(stdout).toMatch(/^Client: a client registered on the spot \(dynamic client registration\), [\w-]+\.$/m);
      expect(count('register')).toBe(1);
      expect(count('metadata-document')).toBe(0);
    });

    it('a pre-registered client_id comes first, even where metadata documents are supported; and is the way in with neither', async () => {
      await setUp({
        server: { cimd: true, metadataDocuments: documents, registration: false },
        clients: [{ client_id: 'blitz-pre' }],
        oauth: `[mcp.servers.oauth]\nclient_id = "blitz-pre"\nclient_metadata_url = "${DOC}"\n`,
      });
      const { stdout } = await signIn();
      expect(stdout).toContain('Client: the pre-registered client blitz-pre (oauth.client_id).');
      expect(authorizedClient()).toEqual(['blitz-pre']);
      expect(count('metadata-document')).toBe(0);
    });

    it('a client_metadata_url that is not https with a path is a settings error naming the field', async () => {
      await setUp({ blitzOAuth: 'client_metadata_url = "http://blitz.example/client.json"' });
      const result = await runBlitz(['mcp', 'login', 'remote', '--no-browser'], { home });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'settings.toml:2: field "oauth.client_metadata_url": must be an https URL (the address of your client ID metadata document), not http:',
      );
    });
  });

  it('over SSH asks for the address the browser ends on, refuses one from another attempt, and takes code#state', async () => {
    await setUp();
    const process = login({ SSH_CONNECTION: '10.0.0.2 50000 10.0.0.1 22' });
    const callback = await authorize(await process.authorizationUrl());
    await process.waitFor(/paste here the address the browser ends on/);
    const wrong = new URL(callback);
    wrong.searchParams.set('state', 'state-of-another-attempt');
    process.paste(wrong.href);
    await process.waitFor(/Refused the pasted address: that address is from another sign-in attempt \(its state does not match\)/);
    process.paste(`${callback.searchParams.get('code')}#${callback.searchParams.get('state')}`);
    const result = await process.exit();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Signed in to MCP server remote.');
    expect(count('token', 'authorization_code')).toBe(1);
  });

  it('gives up after its timeout with a clear message and keeps nothing', async () => {
    await setUp();
    const result = await login(undefined, ['--timeout', '1']).exit();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'blitz: sign-in to MCP server remote timed out: no answer from the browser within 1s; run blitz mcp login remote again',
    );
    expect(fs.existsSync(path.join(home, 'state', 'secrets.json'))).toBe(false);
  });
});

describe('a signed-in server in the daemon', () => {
  it('connects with the token, refreshes an expired one silently, and after logout sends no token at all', async () => {
    await setUp();
    await signIn();
    daemon = await startDaemonProcess(home);
    const first = await connectRemote();
    expect(first.remote).toMatchObject({ state: 'connected', tools: ['echo', 'whoami'] });
    const before = stored()!;
    const registered = fixture.log().find((e) => e.kind === 'register')!;
    const clientId = 'clientId' in registered ? registered.clientId : '';

    // A tool call through the hub: the server sees the token of our registered client.
    const hub = await connectHub(daemon.state, { workspace });
    try {
      expect(textOf(await hub.callTool({ name: 'whoami', arguments: {} }))).toBe(clientId);
      fixture.expireAccessTokens();
      expect(textOf(await hub.callTool({ name: 'whoami', arguments: {} }))).toBe(clientId);
    } finally {
      await hub.close();
    }
    expect((await connectRemote()).remote.state).toBe('connected');
    expect(count('token', 'refresh_token')).toBe(1);
    expect(count('authorize')).toBe(1);
    const after = stored()!;
    expect(after.tokens.access_token).not.toBe(before.tokens.access_token);
    expect(after.tokens.refresh_token).not.toBe(before.tokens.refresh_token);

    const logout = await runBlitz(['mcp', 'logout', 'remote'], { home });
    expect(logout.stdout).toBe('Signed out of MCP server remote: its tokens are forgotten.\n');
    const loggedOutAt = fixture.log().length;
    expect((await connectRemote()).remote).toMatchObject({
      state: 'needsSignIn',
      error: 'MCP server remote needs sign-in: run blitz mcp login remote',
    });
    const since = fixture.log().slice(loggedOutAt);
    expect(since.filter((e) => e.kind === 'mcp').map((e) => 'authorization' in e && e.authorization)).toEqual(['none']);
    expect(stored()).toBeUndefined();

    const log = fs
      .readdirSync(path.join(home, 'logs'))
      .map((f) => fs.readFileSync(path.join(home, 'logs', f), 'utf8'))
      .join('\n');
    for (const secret of [before.tokens.access_token, before.tokens.refresh_token, after.tokens.access_token, after.tokens.refresh_token])
      expect(log).not.toContain(secret);
  });

  it('a revoked refresh token ends in "needs sign-in" with its message, forgets the sign-in, and a new login works without a restart', async () => {
    await setUp();
    await signIn();
    daemon = await startDaemonProcess(home);
    const { ws } = await connectRemote();
    fixture.revokeAll();
    await daemon.client.restartServer(ws.id, 'remote');
    const { remote } = await connectRemote();
    expect(remote).toMatchObject({ state: 'needsSignIn', error: 'MCP server remote needs sign-in: run blitz mcp login remote' });
    expect(fixture.log().filter((e) => e.kind === 'token' && e.grant === 'refresh_token')).toEqual([
      expect.objectContaining({ ok: false }),
    ]);
    expect(stored()).toBeUndefined();
    expect((await runBlitz(['mcp', 'list'], { home })).stdout).toMatch(
      /^remote\s+http\s+\S+\s+0\s+needs sign-in: run blitz mcp login remote$/m,
    );

    await signIn();
    expect((await connectRemote()).remote.state).toBe('connected');
  });

  it('a login clears "needs sign-in" at once: mcp list, mcp get and GET /v1/status show the server connected before any client calls it (issue 26.2)', async () => {
    await setUp();
    daemon = await startDaemonProcess(home);
    const hub = await connectHub(daemon.state, { workspace });
    try {
      await hub.listTools();
      expect((await daemon.client.status()).servers.find((s) => s.name === 'remote')!.state).toBe('needsSignIn');
      const calls = fixture.log().filter((e) => e.kind === 'mcp').length;

      await signIn();
      // No client called the server since: the login itself reconnected it.
      expect((await daemon.client.status()).servers.find((s) => s.name === 'remote')).toMatchObject({ state: 'connected' });
      const list = await runBlitz(['mcp', 'list'], { home });
      expect(list.stdout).toMatch(/^remote\s+http\s+\S+\s+1\s+connected, signed in$/m);
      expect(list.stdout).not.toContain('needs sign-in');
      expect((await runBlitz(['mcp', 'get', 'remote'], { home })).stdout).not.toContain('needs sign-in');
      expect(fixture.log().filter((e) => e.kind === 'mcp').length).toBeGreaterThan(calls);
      expect(textOf(await hub.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toContain('hi');
    } finally {
      await hub.close();
    }
  });

  it('a server answering 401 with no sign-in: needs sign-in, never paused, no registration and no retry storm', async () => {
    await setUp();
    daemon = await startDaemonProcess(home);
    for (let i = 0; i < 6; i++) {
      expect((await connectRemote()).remote).toMatchObject({
        state: 'needsSignIn',
        error: 'MCP server remote needs sign-in: run blitz mcp login remote',
      });
    }
    expect((await daemon.client.status()).servers.find((s) => s.name === 'remote')!.state).toBe('needsSignIn');
    expect(fixture.log().filter((e) => e.kind !== 'mcp')).toEqual([]);
    // One initialize per attempt to connect, nothing more.
    expect(fixture.log().filter((e) => e.kind === 'mcp')).toHaveLength(6);
  });
});
