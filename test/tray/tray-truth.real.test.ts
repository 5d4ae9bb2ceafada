import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeHelper, waitFor } from '../../apps/tray/src/testing/fake-helper.js';
import { fixturePath } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub } from '../support/hub-client.js';
import { fakeNotifySend, nodeServer, startTray, stopLeftDaemon, type RunningTray } from './tray-process.js';

let home: string;
let cwd: string;
let workspace: string;
let tray: RunningTray | undefined;
let daemon: RunningDaemon | undefined;
let client: Client | undefined;

beforeEach(() => {
  home = tempDir('blitz-tray-truth-');
  cwd = tempDir('blitz-tray-truth-cwd-');
  workspace = tempDir('blitz-tray-truth-ws-');
});

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  await tray?.stop();
  tray = undefined;
  await daemon?.stop();
  daemon = undefined;
  await assertNoOrphans({ sessions: await stopLeftDaemon(home), timeoutMs: 20_000 });
  for (const dir of [home, cwd, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

/** The daemon, and the tray on a fake helper with a fake notify-send. */
async function start(settings: string) {
  writeSettings(home, `[daemon]\nport = 0\n\n${settings}`);
  const notifySend = fakeNotifySend(path.join(cwd, 'bin'));
  const helper = new FakeHelper(home);
  daemon = await startDaemonProcess(home);
  tray = startTray({ home, cwd, binDir: path.join(cwd, 'bin') });
  await waitFor(() => helper.titles().length > 0, 'the menu', 20_000, tray.output);
  const menu = () =>
    helper.titles().filter((t) => t !== 'MCP servers' && !/^(Open settings|☐ Start at login|Quit tray|Quit Blitz)$/.test(t));
  /** The menu, icon and tooltip once they show `want` (the surface sends the icon and tooltip by update-menu). */
  const shows = (want: string[], what: string) =>
    waitFor(
      () => JSON.stringify(menu()) === JSON.stringify(want),
      what,
      20_000,
      () => `${JSON.stringify(menu())}\n${tray!.output()}`,
    );
  const lastTooltip = () =>
    [...helper.sent()].reverse().find((l) => l.type === 'update-menu' || Array.isArray(l.items)) as
      { tooltip?: string; menu?: { tooltip: string } } | undefined;
  return { notifySend, helper, menu, shows, tooltip: () => lastTooltip()?.menu?.tooltip ?? lastTooltip()?.tooltip };
}

describe('the tray tells the truth', () => {
  it('a call that timed out shows the server failed — in /v1/status, blitz mcp list, the menu and the icon — until a call succeeds', async () => {
    const t = await start(nodeServer('slow', fixturePath('hang-call'), 'timeout_seconds = 1\nauto_approve = true\n'));
    client = await connectHub(daemon!.state, { workspace });
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'echo',
      'hang',
      'list_mcp_resources',
      'read_mcp_resource',
    ]);
    await t.shows(['Blitz — 1 server connected', '☑ slow'], 'slow connected');

    const timedOut = await client.callTool({ name: 'hang', arguments: {} }).then(
      (result) => JSON.stringify(result),
      (err: Error) => err.message,
    );
    expect(timedOut).toContain('timed out after 1s');
    await t.shows(['Blitz — 1 server failed', '☑ slow — failed: it did not answer within 1s'], 'slow failed in the menu');
    await waitFor(
      () => t.tooltip() === 'Blitz — 1 server failed',
      'the tooltip',
      10_000,
      () => String(t.tooltip()),
    );
    const [slow, ...others] = (await daemon!.client.status()).servers;
    expect(others).toEqual([]);
    expect(slow).toMatchObject({ name: 'slow', enabled: true, state: 'failed', error: 'MCP tool hang timed out after 1s' });
    const listed = await runBlitz(['mcp', 'list'], { home });
    expect(listed.stdout).toMatch(/slow .*failed: it did not answer within 1s; if its calls take long, raise timeout_seconds/);

    // A tool's answer, even an error, is the server working: shown connected again.
    await client.callTool({ name: 'echo', arguments: { text: 'back' } });
    await t.shows(['Blitz — 1 server connected', '☑ slow'], 'slow connected again');
    expect((await daemon!.client.status()).servers[0]).toMatchObject({ state: 'connected' });
    await waitFor(() => t.notifySend.calls().length >= 2, 'two notifications', 15_000, tray!.output);
    expect(t.notifySend.calls().map((argv) => argv[0])).toEqual(['Blitz: slow failed', 'Blitz: slow recovered']);
  }, 60_000);

  it('when the pause ends the daemon tries the server itself: it recovers and the user hears it, with no client calling', async () => {
    const marker = path.join(cwd, 'flaky-works');
    const flaky = path.join(cwd, 'flaky.mjs');
    // Exits at start until the marker exists, then serves like any fixture.
    fs.writeFileSync(
      flaky,
      `import fs from 'node:fs';\n` +
        `if (!fs.existsSync(${JSON.stringify(marker)})) { process.stderr.write('flaky: not ready yet\\n'); process.exit(1); }\n` +
        `await import(${JSON.stringify(pathToFileURL(fixturePath('env-dump')).href)});\n`,
    );
    const t = await start(nodeServer('flaky', flaky));
    const ws = await daemon!.client.openWorkspace(workspace);
    await daemon!.client.listWorkspaceServers(ws.id, { connect: true });
    await daemon!.client.listWorkspaceServers(ws.id, { connect: true });
    await waitFor(
      () => /^☑ flaky — paused, retrying in \d+s$/.test(t.menu()[1] ?? ''),
      'flaky paused in the menu',
      20_000,
      () => JSON.stringify(t.menu()),
    );
    expect(t.menu()[0]).toBe('Blitz — 1 server paused');

    // Fixed behind Blitz's back; nobody calls. The daemon's own trial brings it back.
    fs.writeFileSync(marker, '');
    await waitFor(
      () => t.notifySend.calls().some((argv) => argv[0] === 'Blitz: flaky recovered'),
      'the recovered notification',
      45_000,
      tray!.output,
    );
    await t.shows(['Blitz — 1 server connected', '☑ flaky'], 'flaky connected');
    expect((await daemon!.client.status()).notices.map((n) => `${n.server} ${n.kind}`)).toEqual([
      'flaky failed',
      'flaky paused',
      'flaky recovered',
    ]);
    // Notices of one poll are shown by notify-sends running side by side: their order is the OS's.
    const titles = t.notifySend.calls().map((argv) => argv[0]);
    expect([...titles.slice(0, 2)].sort()).toEqual(['Blitz: flaky failed', 'Blitz: flaky paused']);
    expect(titles.slice(2)).toEqual(['Blitz: flaky recovered']);
    // Each carries the Blitz icon: a failure's in the attention colour (issue 29.4).
    const icon = path.join(home, 'state', 'icon.png');
    const errorIcon = path.join(home, 'state', 'icon-error.png');
    for (const argv of t.notifySend.calls())
      expect(argv.join(' ')).toContain(argv[0] === 'Blitz: flaky recovered' ? `${icon} ` : errorIcon);
    expect(fs.readFileSync(icon).subarray(1, 4).toString()).toBe('PNG');
    expect(fs.readFileSync(errorIcon).subarray(1, 4).toString()).toBe('PNG');
    expect(fs.readFileSync(errorIcon).equals(fs.readFileSync(icon))).toBe(false);
  }, 90_000);

  it('a refused settings edit is shown whole in the menu and told once, not again at each poll or after a tray restart', async () => {
    const t = await start(nodeServer('fs', fixturePath('env-dump')));
    const settings = path.join(home, 'settings.toml');
    const good = fs.readFileSync(settings, 'utf8');
    fs.writeFileSync(settings, `${good}\n[[mcp.servers]]\nname = "a-server-with-a-rather-long-name"\n`);
    const problemLines = () =>
      t.menu().slice(
        1,
        t.menu().findIndex((l) => l.startsWith('☑')),
      );
    const lines = await waitFor(
      () => problemLines().length > 1 && problemLines(),
      'the problem in the menu',
      20_000,
      () => JSON.stringify(t.menu()),
    );
    const [whole, ...others] = (await daemon!.client.status()).problems;
    expect(others).toEqual([]);
    expect(whole).toContain('a-server-with-a-rather-long-name');
    // Wrapped over several items, each short enough for a panel, and nothing left out.
    expect(lines.every((l) => l.length <= 64)).toBe(true);
    expect(lines.join(' ')).toBe(`Settings not applied: ${whole!.replace(`${home}${path.sep}`, '')}`);
    await waitFor(() => t.notifySend.calls().length >= 1, 'the notification', 15_000, tray!.output);
    expect(t.notifySend.calls()[0]!.slice(0, 2)).toEqual(['Blitz: settings not applied', whole]);

    // A restarted tray shows it again but does not say it again…
    expect(await tray!.stop()).toBe(0);
    tray = startTray({ home, cwd, binDir: path.join(cwd, 'bin') });
    await waitFor(
      () => t.helper.sent().filter((l) => Array.isArray(l.items) && (l.items as unknown[]).length > 0).length === 2,
      'the second tray’s menu',
      20_000,
    );
    await waitFor(() => problemLines().length > 1, 'the problem in the second tray’s menu', 20_000);
    // …and says what is new: notifications come in order, so a repeat would stand before it.
    fs.writeFileSync(settings, `${good}\n[[mcp.servers]]\nname = "other"\n`);
    await waitFor(() => t.notifySend.calls().length >= 2, 'the second notification', 20_000, tray!.output);
    expect(t.notifySend.calls().map((argv) => argv[1])).toEqual([whole, (await daemon!.client.status()).problems[0]]);
    expect(t.notifySend.calls()[1]![1]).toContain('"other"');
  }, 90_000);
});
