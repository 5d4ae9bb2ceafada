import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BlitzClient, readDaemonState } from '@blitz/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '@blitz/process';
import { FakeHelper, waitFor } from '../../apps/tray/src/testing/fake-helper.js';
import { fixturePath } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN, REPO_ROOT, runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { fakeNotifySend, fakeOpener, nodeServer, startTray, stopLeftDaemon, type RunningTray } from './tray-process.js';

const SETTINGS = `# my servers, kept by every edit
[daemon]
port = 0

# the code host
${nodeServer('github', fixturePath('env-dump'))}
# files
${nodeServer('fs', fixturePath('env-dump'))}`;

let home: string;
let cwd: string;
let tray: RunningTray | undefined;
let daemon: RunningDaemon | undefined;
/** A tray started some other way than startTray, ended the same way. */
let other: ChildProcess | undefined;
/** Daemons the tray started detached: each leads its own session. */
const detached = new Set<number>();

beforeEach(() => {
  home = tempDir('blitz-tray-');
  cwd = tempDir('blitz-tray-cwd-');
  writeSettings(home, SETTINGS);
});

afterEach(async () => {
  await tray?.stop();
  tray = undefined;
  if (other && other.exitCode === null && other.signalCode === null) {
    const gone = new Promise((resolve) => other!.once('exit', resolve));
    other.kill('SIGTERM');
    await gone;
  }
  other = undefined;
  await daemon?.stop();
  daemon = undefined;
  for (const pid of await stopLeftDaemon(home)) detached.add(pid);
  await assertNoOrphans({ sessions: detached, timeoutMs: 20_000 });
  detached.clear();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(cwd, { recursive: true, force: true });
});

function settingsText(): string {
  return fs.readFileSync(path.join(home, 'settings.toml'), 'utf8');
}

/** The github entry's block of settings.toml. */
function githubBlock(): string {
  const text = settingsText();
  const start = text.indexOf('name = "github"');
  return text.slice(start, text.indexOf('# files', start));
}

describe('blitz tray with a fake systray helper', () => {
  it('starts the daemon, and a click on a server toggles it in settings.toml, comments kept; Quit Blitz stops both', async () => {
    const helper = new FakeHelper(home);
    // A `traybin/` in the folder the tray is started from is never run: only the Blitz home's.
    const planted = new FakeHelper(cwd);
    tray = startTray({ home, cwd });
    const github = await waitFor(() => helper.idOf('☑ github'), 'the github item', 20_000, tray.output);
    expect(planted.sent()).toEqual([]);
    const state = readDaemonState(home)!;
    detached.add(state.pid);
    expect(tray.output()).toContain(`Started the Blitz daemon (pid ${state.pid}).`);
    expect(helper.titles()).toEqual([
      'Blitz — 2 servers ready (idle)',
      'MCP servers',
      '☑ github',
      '☑ fs',
      'Open settings',
      '☐ Start at login',
      'Quit tray',
      'Quit Blitz',
    ]);
    // The Linux helper gets no checked flag: it would append " (√)" and never take it off.
    expect([...helper.items().values()].some((i) => i.checked)).toBe(false);

    helper.click(github);
    await waitFor(() => helper.idOf('☐ github'), 'github unchecked', 15_000, tray.output);
    expect(githubBlock()).toContain('disabled = true');
    expect(settingsText()).toMatch(/^# my servers, kept by every edit\n/);
    expect(settingsText()).toContain('# the code host\n[[mcp.servers]]\nname = "github"');
    expect(helper.titles()[0]).toBe('Blitz — 1 server ready (idle)');
    expect((await new BlitzClient(state).status()).servers.map((s) => [s.name, s.enabled])).toEqual([
      ['github', false],
      ['fs', true],
    ]);

    helper.click(github);
    await waitFor(() => helper.idOf('☑ github'), 'github checked again', 15_000, tray.output);
    expect(githubBlock()).not.toContain('disabled = true');
    expect(settingsText()).toContain('# files\n');

    helper.click(helper.idOf('Quit Blitz')!);
    expect(await tray.exited).toBe(0);
    await waitFor(() => !isProcessAlive(state.pid), 'the daemon to stop');
    // Redraws sent only what changed: one whole menu, then single items.
    expect(helper.sent().filter((l) => Array.isArray(l.items) && (l.items as unknown[]).length > 0)).toHaveLength(1);
    expect(helper.sent().at(-1)).toEqual({ type: 'exit' });
  });

  it('Open settings opens the settings page in the browser by a one-time address (never the token); with no daemon, settings.toml', async () => {
    const helper = new FakeHelper(home);
    const binDir = path.join(cwd, 'bin');
    const opened = fakeOpener(binDir, 'xdg-open');
    daemon = await startDaemonProcess(home);
    tray = startTray({ home, cwd, binDir });
    helper.click(await waitFor(() => helper.idOf('Open settings'), 'the menu', 20_000, tray.output));
    const [url] = await waitFor(() => opened()[0], 'xdg-open to be run', 15_000, tray.output);
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${daemon.state.port}/settings/\\?code=[\\w-]{43}$`));
    expect(url).not.toContain(daemon.state.token);
    const first = await fetch(url!, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('set-cookie')).toMatch(/^blitz_settings=[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/);
    expect((await fetch(url!, { redirect: 'manual' })).status).toBe(403);

    await daemon.stop();
    daemon = undefined;
    helper.click(
      await waitFor(
        () => helper.idOf('Start daemon') !== undefined && helper.idOf('Open settings'),
        'the daemon-down menu',
        15_000,
        tray.output,
      ),
    );
    await waitFor(() => opened()[1], 'xdg-open to be run again', 15_000, tray.output);
    expect(opened()[1]).toEqual([path.join(home, 'settings.toml')]);
  });

  it('Open settings with no browser to open says what to do instead, and never shows the one-time code', async () => {
    const helper = new FakeHelper(home);
    const binDir = path.join(cwd, 'bin');
    const notifySend = fakeNotifySend(binDir);
    // An xdg-open that finds no browser, as on a desktop without one (its exit code 3).
    fs.writeFileSync(path.join(binDir, 'xdg-open'), '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    daemon = await startDaemonProcess(home);
    tray = startTray({ home, cwd, binDir });
    helper.click(await waitFor(() => helper.idOf('Open settings'), 'the menu', 20_000, tray.output));
    const told = await waitFor(
      () => notifySend.calls().find((argv) => argv.includes('Could not open the settings')),
      'the notification',
      15_000,
      tray.output,
    );
    const text = told.join(' ');
    expect(text).toContain('blitz settings --print');
    expect(text).toContain('xdg-open exited with code 3');
    expect(text).not.toMatch(/code=|settings\/\?/);
    expect(tray.output()).not.toMatch(/code=[\w-]{20}/);
  });

  it('says when the daemon is down, recovers by itself when it is back, and starts it on request', async () => {
    const helper = new FakeHelper(home);
    daemon = await startDaemonProcess(home);
    tray = startTray({ home, cwd });
    await waitFor(() => helper.idOf('☑ github'), 'the menu', 20_000, tray.output);
    expect(tray.output()).not.toContain('Started the Blitz daemon');

    await daemon.stop();
    daemon = undefined;
    // The menu changes item by item (one update line each): wait for the whole of it, not its first line.
    const down = ['Blitz daemon not running', 'Start daemon', 'Open settings', '☐ Start at login', 'Quit tray'];
    await waitFor(
      () => JSON.stringify(helper.titles()) === JSON.stringify(down),
      'the daemon-down menu',
      15_000,
      () => `${JSON.stringify(helper.titles())}\n${tray!.output()}`,
    );
    expect(helper.titles()).toEqual(down);

    daemon = await startDaemonProcess(home);
    await waitFor(() => helper.idOf('Blitz — 2 servers ready (idle)'), 'the tray to see the daemon again', 15_000, tray.output);
    await daemon.stop();
    daemon = undefined;

    helper.click(await waitFor(() => helper.idOf('Start daemon'), 'Start daemon', 15_000, tray.output));
    await waitFor(() => helper.idOf('☑ fs'), 'the servers again', 20_000, tray.output);
    const state = readDaemonState(home)!;
    detached.add(state.pid);

    helper.click(helper.idOf('Quit tray')!);
    expect(await tray.exited).toBe(0);
    // Quit tray leaves the daemon running.
    expect(isProcessAlive(state.pid)).toBe(true);
  });

  it('with no display, exits at once with exit 1 and says what to run instead; no daemon is started', async () => {
    const started = Date.now();
    const result = await runBlitz(['tray'], { home, env: { DISPLAY: '', WAYLAND_DISPLAY: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'blitz: no graphical display (neither DISPLAY nor WAYLAND_DISPLAY is set), so there is nowhere to show the tray icon.\n' +
        'Run the daemon without a tray: blitz daemon start\n' +
        'Start it at login without a desktop: blitz autostart enable --daemon-only\n',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(fs.existsSync(path.join(home, 'state', 'daemon.json'))).toBe(false);
  });

  it('a helper that exits before it is ready (it found no display) ends blitz tray with exit 1, never a hang', async () => {
    new FakeHelper(home, 'exit-at-start');
    daemon = await startDaemonProcess(home);
    tray = startTray({ home, cwd });
    expect(await tray.exited).toBe(1);
    expect(tray.output()).toContain(
      'blitz tray: the tray icon could not be shown: the tray helper exited with code 1 before it was ready:\nGtk-WARNING: cannot open display',
    );
    expect(tray.output()).toContain('blitz autostart enable --daemon-only');
  });

  it('a second tray for the same home is refused; SIGTERM closes the tray and its helper, the daemon stays', async () => {
    const helper = new FakeHelper(home);
    daemon = await startDaemonProcess(home);
    tray = startTray({ home, cwd });
    // Waits on the tray, not on a clock: under load the menu takes as long as starting blitz
    // tray (measured 5 s with six CPU hogs, most of it the CLI's own start); a tray that
    // exits instead fails at once, with its output.
    const running = tray;
    const menu = await waitFor(
      () => helper.idOf('☑ github') ?? (running.child.exitCode === null ? undefined : -1),
      'the menu',
      100_000,
      running.output,
    );
    expect(menu, running.output()).not.toBe(-1);
    const second = startTray({ home, cwd });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`blitz tray: a Blitz tray is already running for ${home} (pid ${tray.child.pid})`);
    expect(await tray.stop('SIGTERM')).toBe(0);
    expect(helper.sent().at(-1)).toEqual({ type: 'exit' });
    expect((await daemon.client.status()).pid).toBe(daemon.child.pid);
    expect(fs.existsSync(path.join(home, 'state', 'tray.lock'))).toBe(false);
  }, 150_000);

  it('runs from its own entry point too (TRAY_ENTRY), reaching the CLI through BLITZ_CLI for Start daemon', async () => {
    const helper = new FakeHelper(home);
    const entry = path.join(REPO_ROOT, 'apps', 'tray', 'dist', 'main.js');
    const child = (other = spawn(process.execPath, [entry], {
      cwd,
      env: { PATH: process.env.PATH, HOME: home, BLITZ_HOME: home, BLITZ_CLI: BLITZ_BIN, DISPLAY: ':97' },
      stdio: ['ignore', 'ignore', 'pipe'],
    }));
    let output = '';
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Three starts in a row (the tray, the CLI it runs, the daemon that CLI starts): under load
    // each takes as long as the menu of the test above, so the waits and the test are as long.
    helper.click(
      await waitFor(
        () => helper.idOf('Start daemon'),
        'Start daemon',
        60_000,
        () => output,
      ),
    );
    await waitFor(
      () => helper.idOf('☑ github'),
      'the servers',
      60_000,
      () => `${output}\n${JSON.stringify(helper.titles())}`,
    );
    detached.add(readDaemonState(home)!.pid);
    // Its own update, a line after the servers': the helper may not have been sent it yet.
    helper.click(
      await waitFor(
        () => helper.idOf('Quit Blitz'),
        'Quit Blitz',
        20_000,
        () => output,
      ),
    );
    expect(await exited).toBe(0);
    // Drawn down first, then up: the same helper, its server slots ready from the start.
    expect(helper.sent().filter((l) => Array.isArray(l.items) && (l.items as unknown[]).length > 0)).toHaveLength(1);
  }, 150_000);
});
