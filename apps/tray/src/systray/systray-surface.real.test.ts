import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { buildMenu } from '../menu/build-menu.js';
import type { MenuAction } from '../menu/menu-model.js';
import { FakeHelper, waitFor } from '../testing/fake-helper.js';
import { SystraySurface, TrayHelperError } from './systray-surface.js';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const status = (names: string[]) => ({
  version: '0.1.0',
  pid: 1,
  servers: names.map((name) => ({ name, enabled: true, transport: 'stdio' as const, state: 'connected' as const })),
  problems: [],
  notices: [],
  lastNoticeId: 0,
  workspaces: 0,
});
const menu = (names: string[]) => buildMenu({ daemon: 'up', status: status(names), startAtLogin: false }, NOW);

let cwd: string;
let previousCwd: string;
let surface: SystraySurface | undefined;

// systray2 finds `./traybin/` through the process's working directory.
beforeEach(() => {
  previousCwd = process.cwd();
  cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-surface-')));
  process.chdir(cwd);
});

afterEach(async () => {
  await surface?.close();
  surface = undefined;
  process.chdir(previousCwd);
  fs.rmSync(cwd, { recursive: true, force: true });
});

function open(actions: MenuAction[] = [], exits: Error[] = [], clock?: FakeClock): SystraySurface {
  surface = new SystraySurface({
    platform: 'linux',
    cwd,
    onAction: (a) => actions.push(a),
    onHelperExit: (e) => exits.push(e),
    readyTimeoutMs: 10_000,
    ...(clock ? { clock } : {}),
  });
  return surface;
}

describe.runIf(process.platform === 'linux')('the systray surface with a fake helper', () => {
  it('sends the whole menu once, then only the items that changed, as fresh objects', async () => {
    const helper = new FakeHelper(cwd);
    const s = open();
    await s.show(menu(['fs', 'github']));
    await waitFor(() => helper.sent().length >= 1, 'the menu');
    expect(helper.titles()).toEqual([
      'Blitz — 2 servers connected',
      'MCP servers',
      '☑ fs',
      '☑ github',
      'Open settings',
      '☐ Start at login',
      'Quit tray',
      'Quit Blitz',
    ]);
    const model = buildMenu(
      {
        daemon: 'up',
        status: {
          ...status(['fs', 'github']),
          servers: [...status(['fs']).servers, { name: 'github', enabled: false, transport: 'stdio', state: 'disabled' }],
        },
        startAtLogin: false,
      },
      NOW,
    );
    await s.show(model);
    await waitFor(() => helper.sent().length >= 4, 'the updates');
    const updates = helper.sent().slice(1);
    expect(updates).toEqual([
      { type: 'update-item', item: expect.objectContaining({ title: 'Blitz — 1 server connected', enabled: false }), seq_id: -1 },
      { type: 'update-item', item: expect.objectContaining({ title: '☐ github', enabled: true, checked: false }), seq_id: -1 },
      { type: 'update-menu', menu: expect.objectContaining({ title: '', tooltip: 'Blitz — 1 server connected', items: [] }) },
    ]);
    // Items are numbered as systray2 numbers them at start-up, so update-item finds them.
    expect((updates[1]!.item as { __id: number }).__id).toBe(helper.idOf('☐ github'));
  });

  it('maps a click on a slot to the action of the entry shown there', async () => {
    const helper = new FakeHelper(cwd);
    const actions: MenuAction[] = [];
    const s = open(actions);
    await s.show(menu(['fs', 'github']));
    helper.click(await waitFor(() => helper.idOf('☑ github'), 'the github item'));
    helper.click(helper.idOf(/^Blitz — /)!); // a greyed note: nothing happens
    helper.click(helper.idOf('Quit Blitz')!);
    await waitFor(() => actions.length >= 2, 'two clicks');
    expect(actions).toEqual([{ kind: 'toggleServer', server: 'github', enable: false }, { kind: 'quitBlitz' }]);
  });

  it('restarts the helper with more slots when the servers outgrow them', async () => {
    const helper = new FakeHelper(cwd);
    const s = open();
    await s.show(menu(['a']));
    const many = Array.from({ length: 9 }, (_, i) => `s${i}`);
    await s.show(menu(many));
    const menus = await waitFor(() => {
      const sent = helper.sent().filter((l) => Array.isArray(l.items) && (l.items as unknown[]).length > 0);
      return sent.length === 2 && sent;
    }, 'the second menu');
    expect(menus.map((m) => (m.items as { items?: unknown[] }[])[8]!.items!.length)).toEqual([8, 16]);
    expect(helper.sent().filter((l) => l.type === 'exit')).toHaveLength(1);
    expect(helper.titles().filter((t) => t.startsWith('☑ s'))).toHaveLength(9);
  });

  it('a helper that exits before it is ready (no display) fails at once with its stderr, never hangs', async () => {
    new FakeHelper(cwd, 'exit-at-start');
    const started = Date.now();
    const error = await open()
      .show(menu([]))
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(error).toBeInstanceOf(TrayHelperError);
    expect((error as Error).message).toMatch(/exited with code 1 before it was ready:\nGtk-WARNING: cannot open display/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a helper that never says it is ready fails once the ready timeout passes on the clock', async () => {
    new FakeHelper(cwd, 'never-ready');
    const clock = new FakeClock();
    const shown = open([], [], clock)
      .show(menu([]))
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    await vi.waitFor(() => expect(clock.pendingTimers()).toBe(1));
    clock.advance(9_999);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(1);
    const error = await shown;
    expect(error).toBeInstanceOf(TrayHelperError);
    expect((error as Error).message).toBe('the tray helper was not ready within 10s');
  });

  it('a helper that cannot be spawned fails at once with the reason', async () => {
    // A directory where the helper should be: it exists and is searchable, but cannot run.
    fs.mkdirSync(path.join(cwd, 'traybin', 'tray_linux_release'), { recursive: true });
    const error = await open()
      .show(menu([]))
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(error).toBeInstanceOf(TrayHelperError);
    expect((error as Error).message).toMatch(/^the tray helper could not start: spawn .*tray_linux_release EACCES$/);
  });

  it('a helper that dies later is reported once', async () => {
    new FakeHelper(cwd, 'crash-after-ready');
    const exits: Error[] = [];
    await open([], exits).show(menu([]));
    await waitFor(() => exits.length > 0, 'the exit report');
    expect(exits.map((e) => e.message)).toEqual(['the tray helper exited with code 3']);
  });

  it('makes a helper published mode 644 executable before starting it', async () => {
    const helper = new FakeHelper(cwd);
    const file = path.join(helper.dir, 'tray_linux_release');
    fs.chmodSync(file, 0o644);
    await open().show(menu([]));
    expect(fs.statSync(file).mode & 0o777).toBe(0o755);
  });
});
