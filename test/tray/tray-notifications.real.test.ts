import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeHelper, waitFor } from '../../apps/tray/src/testing/fake-helper.js';
import { fixturePath } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { fakeNotifySend, nodeServer, startTray, stopLeftDaemon, type RunningTray } from './tray-process.js';

const SECRET = 'tray-secret-value-71c4';

let home: string;
let cwd: string;
let workspace: string;
let marker: string;
let tray: RunningTray | undefined;
let daemon: RunningDaemon | undefined;

beforeEach(() => {
  home = tempDir('blitz-tray-notify-');
  cwd = tempDir('blitz-tray-cwd-');
  workspace = tempDir('blitz-tray-ws-');
  marker = path.join(cwd, 'flaky-works');
  // Fails until the marker exists, then serves like any fixture: a failure, then a recovery.
  const flaky = path.join(cwd, 'flaky.mjs');
  fs.writeFileSync(
    flaky,
    `import fs from 'node:fs';\n` +
      `if (!fs.existsSync(${JSON.stringify(marker)})) { process.stderr.write('flaky: not ready yet\\n'); process.exit(1); }\n` +
      `await import(${JSON.stringify(pathToFileURL(fixturePath('env-dump')).href)});\n`,
  );
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n${nodeServer('broken', fixturePath('exit-at-start'), `env = { TOKEN = "${SECRET}" }\n`)}\n${nodeServer('flaky', flaky)}`,
  );
});

afterEach(async () => {
  await tray?.stop();
  tray = undefined;
  await daemon?.stop();
  daemon = undefined;
  await assertNoOrphans({ sessions: await stopLeftDaemon(home), timeoutMs: 20_000 });
  for (const dir of [home, cwd, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('desktop notifications from the tray', () => {
  it('one per transition (failed, paused, recovered), none repeated after a tray restart, no secret', async () => {
    const binDir = path.join(cwd, 'bin');
    const notifySend = fakeNotifySend(binDir);
    const helper = new FakeHelper(home);
    daemon = await startDaemonProcess(home);
    tray = startTray({ home, cwd, binDir });
    await waitFor(() => helper.idOf('☑ broken'), 'the menu', 20_000, tray.output);

    const ws = await daemon.client.openWorkspace(workspace);
    // First listing: both fail once ("failed"). Second: broken fails again ("paused"), flaky works ("recovered").
    await daemon.client.listWorkspaceServers(ws.id, { connect: true });
    fs.writeFileSync(marker, '');
    await daemon.client.listWorkspaceServers(ws.id, { connect: true });
    const notices = (await daemon.client.status()).notices.map((n) => `${n.server} ${n.kind}`);
    expect(notices.sort()).toEqual(['broken failed', 'broken paused', 'flaky failed', 'flaky recovered']);

    await waitFor(() => notifySend.calls().length >= 4, 'four notifications', 15_000, tray.output);
    await waitFor(() => helper.idOf(/^☑ broken — paused, retrying in \d+s$/), 'the paused title');
    const calls = notifySend.calls().slice(0, 4);
    expect(calls.map((argv) => argv[0]).sort()).toEqual([
      'Blitz: broken failed',
      'Blitz: broken paused',
      'Blitz: flaky failed',
      'Blitz: flaky recovered',
    ]);
    for (const argv of calls) {
      expect(argv[1]!.length).toBeGreaterThan(0);
      expect(argv[1]!.length).toBeLessThanOrEqual(200);
    }
    expect(calls.find((argv) => argv[0] === 'Blitz: broken failed')![1]).toContain('broken');
    expect(JSON.stringify(calls)).not.toContain(SECRET);
    const saved = JSON.parse(fs.readFileSync(path.join(home, 'state', 'tray.json'), 'utf8')) as {
      daemon: { pid: number };
      lastNoticeId: number;
    };
    expect(saved).toMatchObject({ daemon: { pid: daemon.child.pid }, lastNoticeId: 4 });

    // A restarted tray remembers what it said.
    expect(await tray.stop()).toBe(0);
    tray = startTray({ home, cwd, binDir });
    await waitFor(
      () => helper.sent().filter((l) => Array.isArray(l.items) && (l.items as unknown[]).length > 0).length === 2,
      'the second tray’s menu',
      20_000,
    );

    // …and still says what is new: flaky fails again. Notices are said in id order, so once
    // this new one is said, any repeat of an old one (by either tray) would stand before it.
    fs.rmSync(marker);
    await daemon.client.restartServer(ws.id, 'flaky');
    await daemon.client.listWorkspaceServers(ws.id, { connect: true });
    // It failed again within a minute of coming back: flapping, told as such, once (issue 29.4).
    const said = () => notifySend.calls().some((argv) => argv[0] === 'Blitz: flaky keeps failing');
    await waitFor(said, 'the new notice');
    expect(notifySend.calls().map((argv) => argv[0])).toEqual([...calls.map((argv) => argv[0]), 'Blitz: flaky keeps failing']);
    // A failure's notification carries the error icon, a recovery's the normal one.
    const iconOf = (title: string) =>
      notifySend
        .calls()
        .find((argv) => argv[0] === title)!
        .join(' ');
    expect(iconOf('Blitz: flaky keeps failing')).toContain(path.join(home, 'state', 'icon-error.png'));
    expect(iconOf('Blitz: flaky recovered')).toContain(path.join(home, 'state', 'icon.png'));
  });
});
