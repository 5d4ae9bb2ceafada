import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConnector, CredentialStore, Manager, ServerSignIns, signIn } from '@blitz/core';
import { systemClock } from '@blitz/clock';
import { startOAuthServer, type OAuthFixture } from '../fixtures/oauth/oauth-server.mjs';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { httpServer } from '../../packages/core/src/testing/oauth-sign-in.js';
import { authorize } from './login-process.js';

let fixture: OAuthFixture;
let dir: string;
let manager: Manager;
let signIns: ServerSignIns;

const remote = (url: string) => httpServer(url);

beforeEach(async () => {
  fixture = await startOAuthServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-manager-oauth-'));
  const store = await CredentialStore.open({
    paths: { secrets: path.join(dir, 'secrets.json') },
    probe: async () => ({ ok: false, reason: 'test' }),
  });
  await signIn({
    config: remote(fixture.url),
    store,
    noBrowser: true,
    env: { DISPLAY: ':0' },
    print: (text) => {
      const url = /^\s+(http:\/\/\S+\/authorize\?\S+)$/m.exec(text)?.[1];
      if (url) void authorize(url).then((callback) => fetch(callback));
    },
  });
  signIns = new ServerSignIns({ store: async () => store, clock: systemClock, onSecrets: () => {}, onForgotten: () => {}, warn: () => {} });
  manager = new Manager({
    workspace: dir,
    clock: systemClock,
    connector: createConnector({
      blitzHome: dir,
      clock: systemClock,
      clientVersion: 'test',
      warn: () => {},
      authFetch: (config) => signIns.fetchFor(config),
    }),
  });
  await manager.update({ servers: [{ config: remote(fixture.url) }] });
});

afterEach(async () => {
  await manager.close();
  await signIns.close();
  await fixture.close();
  await assertNoOrphans();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function whoami(): Promise<string> {
  const entry = (await manager.listTools()).find((e) => e.originalName === 'whoami')!;
  const result = await manager.callTool(await manager.resolveTool('main', entry.exposedName), {});
  return (result.content as Array<{ text: string }>)[0]!.text;
}

describe('a tool call to a signed-in server through the manager', () => {
  it('carries the token, survives an expired access token by refreshing, and turns "needs sign-in" when access is revoked', async () => {
    const client = fixture.log().find((e) => e.kind === 'register')!;
    expect(await whoami()).toBe('clientId' in client ? client.clientId : '');

    fixture.expireAccessTokens();
    expect(await whoami()).toBe('clientId' in client ? client.clientId : '');
    expect(fixture.log().filter((e) => e.kind === 'token' && e.grant === 'refresh_token')).toEqual([expect.objectContaining({ ok: true })]);
    expect(fixture.log().filter((e) => e.kind === 'authorize')).toHaveLength(1);

    fixture.revokeAll();
    const entry = manager
      .catalog()
      .list()
      .find((e) => e.originalName === 'whoami')!;
    await expect(manager.callTool(await manager.resolveTool('main', entry.exposedName), {})).rejects.toMatchObject({
      code: 'NEEDS_SIGN_IN',
      message: 'MCP server remote needs sign-in: run blitz mcp login remote',
    });
    expect(manager.states()[0]).toMatchObject({
      state: 'needsSignIn',
      error: 'MCP server remote needs sign-in: run blitz mcp login remote',
    });
    expect(manager.connection('remote').breaker.status().kind).toBe('closed');
  });
});
