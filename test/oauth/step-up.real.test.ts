import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthFixture } from '../fixtures/oauth/oauth-server.mjs';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';
import { completeInBrowser, startLogin, type LoginProcess } from './login-process.js';

// A server that lets initialize through, wants mcp:basic for everything else, and mcp:admin
// as well for its whoami tool: a 403 insufficient_scope naming "mcp:basic mcp:admin".
let fixture: OAuthFixture;
let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;
const logins: LoginProcess[] = [];

beforeEach(async () => {
  home = tempDir('blitz-stepup-');
  workspace = tempDir('blitz-stepup-ws-');
  fixture = await startOAuthServer({
    openInitialize: true,
    requiredScopes: ['mcp:basic'],
    toolScopes: { whoami: ['mcp:admin'] },
    scopesSupported: ['mcp:basic', 'mcp:admin', 'files:write'],
  });
  writeServer();
});

afterEach(async () => {
  for (const login of logins) if (login.child.exitCode === null) login.child.kill();
  await Promise.all(logins.map((l) => l.exit()));
  logins.length = 0;
  if (daemon) await daemon.stop();
  daemon = undefined;
  await fixture.close();
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

function writeServer(oauth = ''): void {
  writeSettings(home, `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "remote"\nurl = "${fixture.url}"\nauto_approve = true\n${oauth}`);
}

async function login(): Promise<string> {
  const process = startLogin(home, 'remote');
  logins.push(process);
  await completeInBrowser(await process.authorizationUrl());
  const result = await process.exit();
  expect(result.code, result.stderr).toBe(0);
  return result.stdout + result.stderr;
}

const authorizedScopes = () => fixture.log().flatMap((e) => (e.kind === 'authorize' ? [e.scopes] : []));

function stored(): { challengedScope?: string; tokens: { scope?: string } } {
  const file = path.join(home, 'state', 'secrets.json');
  return JSON.parse((JSON.parse(fs.readFileSync(file, 'utf8')) as { secrets: Record<string, string> }).secrets['mcp-oauth-remote']!);
}

describe('scope step-up', () => {
  it('a 403 insufficient_scope marks the server "needs more access" with the scope, says so to the client, never pauses it, and the next login asks for held + challenged', async () => {
    await login();
    expect(authorizedScopes()).toEqual([['mcp:basic']]);
    daemon = await startDaemonProcess(home);
    const hub = await connectHub(daemon.state, { workspace });
    try {
      expect(textOf(await hub.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toContain('hi');
      // More refusals than the breaker's threshold: none of them counts.
      for (let i = 0; i < 6; i++) {
        const refused = await hub.callTool({ name: 'whoami', arguments: {} }).then(
          (result) => textOf(result),
          (err: Error) => err.message,
        );
        expect(refused).toContain(
          'MCP server remote needs more access (scope "mcp:basic mcp:admin"): run blitz mcp login remote to ask for it',
        );
      }
      const status = (await daemon.client.status()).servers.find((s) => s.name === 'remote')!;
      expect(status).toMatchObject({ state: 'needsMoreAccess', scope: 'mcp:basic mcp:admin' });
      // Other tools still work meanwhile.
      expect(textOf(await hub.callTool({ name: 'echo', arguments: { text: 'again' } }))).toContain('again');
      expect((await daemon.client.status()).servers.find((s) => s.name === 'remote')!.state).toBe('needsMoreAccess');
      expect(stored().challengedScope).toBe('mcp:basic mcp:admin');

      const list = await runBlitz(['mcp', 'list'], { home });
      expect(list.stdout).toMatch(
        /^remote\s+http\s+\S+\s+1\s+needs more access \(scope "mcp:basic mcp:admin"\): run blitz mcp login remote$/m,
      );
      const json = JSON.parse((await runBlitz(['mcp', 'list', '--json'], { home })).stdout) as Array<{ state?: string; scope?: string }>;
      expect(json[0]).toMatchObject({ state: 'needsMoreAccess', scope: 'mcp:basic mcp:admin' });

      const output = await login();
      expect(output).toContain('MCP server remote asked for more access; asking for scope "mcp:basic mcp:admin".');
      expect(authorizedScopes()).toEqual([['mcp:basic'], ['mcp:basic', 'mcp:admin']]);
      expect(stored().challengedScope).toBeUndefined();
      // The daemon was told: the next call carries the new token and passes.
      expect(textOf(await hub.callTool({ name: 'whoami', arguments: {} }))).not.toContain('needs more access');
      expect((await daemon.client.status()).servers.find((s) => s.name === 'remote')!.state).toBe('connected');
    } finally {
      await hub.close();
    }
  });

  it('refused at connect for want of a scope (a token of configured scopes that are not enough): needs more access there too, never paused, and login adds the scope', async () => {
    writeServer('[mcp.servers.oauth]\nscopes = ["files:write"]\n');
    await login();
    expect(authorizedScopes()).toEqual([['files:write']]);
    daemon = await startDaemonProcess(home);
    const ws = await daemon.client.openWorkspace(workspace);
    for (let i = 0; i < 4; i++) {
      const remote = (await daemon.client.listWorkspaceServers(ws.id, { connect: true })).find((s) => s.name === 'remote')!;
      expect(remote).toMatchObject({
        state: 'needsMoreAccess',
        error: 'MCP server remote needs more access (scope "mcp:basic"): run blitz mcp login remote to ask for it',
      });
    }
    expect((await daemon.client.status()).servers.find((s) => s.name === 'remote')).toMatchObject({
      state: 'needsMoreAccess',
      scope: 'mcp:basic',
    });
    expect(await login()).toContain('asking for scope "files:write mcp:basic"');
    expect(authorizedScopes()[1]).toEqual(['files:write', 'mcp:basic']);
    const remote = (await daemon.client.listWorkspaceServers(ws.id, { connect: true })).find((s) => s.name === 'remote')!;
    expect(remote.state).toBe('connected');
  });
});
