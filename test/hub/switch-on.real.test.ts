import fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeHelper, waitFor } from '../../apps/tray/src/testing/fake-helper.js';
import { fixturePath } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, type HubTransport } from '../support/hub-client.js';
import { nodeServer, startTray, type RunningTray } from '../tray/tray-process.js';

/**
 * The product promises 2 s from the click to `list_changed`; a loaded CI machine may take
 * longer to start the server's process, so the test allows more. What it holds to is that the
 * notification comes by itself: the client does not list between the click and it.
 */
const NOTIFICATION_BOUND_MS = 20_000;

let home: string;
let workspace: string;
let cwd: string;
let daemon: RunningDaemon | undefined;
let tray: RunningTray | undefined;
const clients: Client[] = [];

beforeEach(() => {
  home = tempDir('blitz-switch-');
  workspace = tempDir('blitz-switch-ws-');
  cwd = tempDir('blitz-switch-cwd-');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await tray?.stop();
  tray = undefined;
  await daemon?.stop();
  daemon = undefined;
  await assertNoOrphans();
  for (const dir of [home, workspace, cwd]) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each<HubTransport>(['http', 'lines'])('a server switched on from the tray, client over %s', (via) => {
  it('starts at once and reaches the connected client as list_changed, without the client listing first; its tools are then listed', async () => {
    writeSettings(
      home,
      `[daemon]\nport = 0\n\n${nodeServer('on', fixturePath('env-dump'))}\n${nodeServer('later', fixturePath('resources'), 'prefix = "later"\ndisabled = true\n')}`,
    );
    daemon = await startDaemonProcess(home);
    const helper = new FakeHelper(home);
    tray = startTray({ home, cwd });
    const item = await waitFor(() => helper.idOf('☐ later'), 'the switched-off item', 20_000, tray.output);

    const client = await connectHub(daemon.state, { workspace, via });
    clients.push(client);
    const before = (await client.listTools()).tools.map((t) => t.name);
    expect(before).toContain('echo');
    expect(before.some((n) => n.startsWith('later__'))).toBe(false);
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      notified++;
    });

    helper.click(item);
    await waitFor(
      () => notified > 0,
      'tools/list_changed after the click',
      NOTIFICATION_BOUND_MS,
      () => `${tray!.output()}\n${daemon!.output()}`,
    );
    // The server runs already: it was started for the connected client, not by this listing.
    const later = (await daemon.client.status()).servers.find((s) => s.name === 'later');
    expect(later).toMatchObject({ enabled: true, state: 'connected' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['later__echo', 'later__sized']));
    await waitFor(() => helper.idOf('☑ later'), 'the item checked', 15_000, tray.output);
  });
});
