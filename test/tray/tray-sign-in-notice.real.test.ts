import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthFixture } from '../fixtures/oauth/oauth-server.mjs';
import { FakeHelper, waitFor } from '../../apps/tray/src/testing/fake-helper.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub } from '../support/hub-client.js';
import { fakeNotifySend, startTray, stopLeftDaemon, type RunningTray } from './tray-process.js';

let fixture: OAuthFixture;
let home: string;
let cwd: string;
let workspace: string;
let daemon: RunningDaemon;
let hub: Client;
let tray: RunningTray | undefined;

describe('a server that needs sign-in, told by the tray (issue 29.7)', () => {
  beforeAll(async () => {
    fixture = await startOAuthServer({ accessTtlSeconds: 3600 });
    home = tempDir('blitz-tray-sign-in-');
    cwd = tempDir('blitz-tray-sign-in-cwd-');
    workspace = tempDir('blitz-tray-sign-in-ws-');
    writeSettings(home, `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "remote"\nurl = "${fixture.url}"\n`);
    daemon = await startDaemonProcess(home);
    hub = await connectHub(daemon.state, { workspace });
    await hub.listTools();
  });

  afterAll(async () => {
    await tray?.stop();
    await hub?.close();
    await daemon?.stop();
    await fixture?.close();
    await assertNoOrphans({ sessions: await stopLeftDaemon(home), timeoutMs: 20_000 });
    for (const dir of [home, cwd, workspace]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends one notification saying what to do, not again after a tray restart', async () => {
    const binDir = path.join(cwd, 'bin');
    const notifySend = fakeNotifySend(binDir);
    const helper = new FakeHelper(home);
    tray = startTray({ home, cwd, binDir });
    await waitFor(() => helper.idOf('Sign in to remote…'), 'the sign-in item', 20_000, tray.output);
    await waitFor(() => notifySend.calls().length >= 1, 'the notification', 15_000, tray.output);
    const [title, message] = notifySend.calls()[0]!;
    expect(title).toBe('Blitz: remote needs sign-in');
    expect(message).toContain('Sign in to remote…');
    expect(message).toContain('blitz mcp login remote');

    expect(await tray.stop()).toBe(0);
    tray = startTray({ home, cwd, binDir });
    await waitFor(
      () => helper.sent().filter((l) => Array.isArray(l.items) && (l.items as unknown[]).length > 0).length === 2,
      'the second tray’s menu',
      20_000,
    );
    // Its menu comes from the daemon's status, which still says remote needs sign-in: told before, not again.
    expect(notifySend.calls().map((argv) => argv[0])).toEqual(['Blitz: remote needs sign-in']);
  });
});
