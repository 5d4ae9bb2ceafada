import type { GlobalServerStatus, Notice, StatusResponse } from '@blitz/client';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import type { MenuModel } from './menu/menu-model.js';
import { menuText } from './menu/menu-text.js';
import type { NoticeCursor } from './notify/notice-cursor.js';
import type { DesktopNotification } from './notify/notification-text.js';
import { TrayApp, type DaemonLink, type TrayAppDeps } from './tray-app.js';
import { STABLE_MS } from './notify/notification-policy.js';

const T0 = Date.parse('2026-11-29T12:00:00.000Z');

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A daemon in memory: its servers and notices, and every request it got. */
class FakeDaemon {
  servers: GlobalServerStatus[] = [];
  notices: Notice[] = [];
  problems: string[] = [];
  requests: string[] = [];
  identity = { pid: 4242, startedAt: '2026-11-29T11:00:00.000Z' };
  running = true;

  link(): DaemonLink | undefined {
    if (!this.running) return undefined;
    return {
      identity: this.identity,
      api: {
        status: async (after?: number): Promise<StatusResponse> => {
          this.requests.push(`status after=${after}`);
          return {
            version: '0.1.0',
            pid: this.identity.pid,
            servers: structuredClone(this.servers),
            problems: this.problems,
            notices: this.notices.filter((n) => after === undefined || n.id > after),
            lastNoticeId: Math.max(0, ...this.notices.map((n) => n.id)),
            workspaces: 1,
          };
        },
        setServerEnabled: async (name: string, enabled: boolean) => {
          this.requests.push(`enable ${name} ${enabled}`);
          const server = this.servers.find((s) => s.name === name);
          if (!server) throw new Error(`no MCP server named "${name}"`);
          Object.assign(server, { enabled, state: enabled ? 'idle' : 'disabled' });
          return {};
        },
        shutdown: async () => {
          this.requests.push('shutdown');
          this.running = false;
          return { stopping: true };
        },
      },
    };
  }

  notice(kind: Notice['kind'], server: string, time = T0): Notice {
    const notice: Notice = {
      id: this.notices.length + 1,
      time: new Date(time).toISOString(),
      server,
      kind,
      message: `${server} ${kind}: because`,
    };
    this.notices.push(notice);
    return notice;
  }
}

interface Harness {
  app: TrayApp;
  clock: FakeClock;
  daemon: FakeDaemon;
  drawn: MenuModel[];
  notified: DesktopNotification[];
  store: { cursor: NoticeCursor | undefined; problems?: string[] };
  autostart: { enabled: boolean };
}

function harness(
  opts: { clock?: FakeClock; daemon?: FakeDaemon; store?: { cursor: NoticeCursor | undefined; problems?: string[] } } = {},
): Harness {
  const clock = opts.clock ?? new FakeClock(T0);
  const daemon = opts.daemon ?? new FakeDaemon();
  const store = opts.store ?? { cursor: undefined };
  const drawn: MenuModel[] = [];
  const notified: DesktopNotification[] = [];
  const autostart = { enabled: false };
  const deps: TrayAppDeps = {
    clock,
    findDaemon: () => daemon.link(),
    surface: { show: async (model) => void drawn.push(model) },
    notifier: { notify: (n) => void notified.push(n) },
    cursorStore: {
      load: () => store.cursor,
      save: (c) => void (store.cursor = structuredClone(c)),
      loadProblems: () => [...(store.problems ?? [])],
      saveProblems: (p) => void (store.problems = [...p]),
    },
    autostart: { isEnabled: async () => autostart.enabled, setEnabled: async (on) => void (autostart.enabled = on) },
    openSettings: async () => {
      throw new Error('xdg-open: not found');
    },
    startDaemon: async () => {
      daemon.running = true;
    },
    log: () => {},
  };
  return { app: new TrayApp(deps), clock, daemon, drawn, notified, store, autostart };
}

const server = (name: string, state: GlobalServerStatus['state'], extra: Partial<GlobalServerStatus> = {}): GlobalServerStatus => ({
  name,
  enabled: state !== 'disabled',
  transport: 'stdio',
  state,
  ...extra,
});

const lastText = (h: Harness) => menuText(h.drawn.at(-1)!);

describe('the tray app', () => {
  it('polls every 2 s and redraws only when what the menu shows changed', async () => {
    const h = harness();
    h.daemon.servers = [server('fs', 'idle'), server('github', 'idle')];
    await h.app.start();
    expect(h.drawn).toHaveLength(1);
    expect(lastText(h)).toContain('(Blitz — 2 servers ready (idle))');

    await h.clock.advanceSettling(6_000, settle);
    expect(h.daemon.requests.filter((r) => r.startsWith('status'))).toHaveLength(4);
    expect(h.drawn).toHaveLength(1);

    h.daemon.servers[0]!.state = 'connected';
    await h.clock.advanceSettling(1_999, settle);
    expect(h.drawn).toHaveLength(1);
    await h.clock.advanceSettling(1, settle);
    expect(h.drawn).toHaveLength(2);
    expect(lastText(h)).toContain('(Blitz — 1 connected, 1 idle)');
    h.app.stop(0);
    expect(await h.app.done).toBe(0);
    expect(h.clock.pendingTimers()).toBe(0);
  });

  it('counts a pause down on the injected clock, redrawing as it goes', async () => {
    const h = harness();
    h.daemon.servers = [server('github', 'paused', { retryAt: new Date(T0 + 30_000).toISOString() })];
    await h.app.start();
    expect(lastText(h)).toContain('[x] github — paused, retrying in 30s');
    await h.clock.advanceSettling(2_000, settle);
    expect(lastText(h)).toContain('[x] github — paused, retrying in 28s');
    expect(h.drawn).toHaveLength(2);
    h.app.stop(0);
  });

  it('a click on a server toggles it through the API and redraws at once', async () => {
    const h = harness();
    h.daemon.servers = [server('fs', 'connected'), server('off', 'disabled')];
    await h.app.start();
    await h.app.handle({ kind: 'toggleServer', server: 'fs', enable: false });
    await h.app.handle({ kind: 'toggleServer', server: 'off', enable: true });
    expect(h.daemon.requests.filter((r) => r.startsWith('enable'))).toEqual(['enable fs false', 'enable off true']);
    expect(lastText(h)).toContain('[ ] fs\n  [x] off');
    h.app.stop(0);
  });

  it('a failed click is told as a notification, and the tray carries on', async () => {
    const h = harness();
    await h.app.start();
    await h.app.handle({ kind: 'toggleServer', server: 'gone', enable: true });
    await h.app.handle({ kind: 'openSettings' });
    expect(h.notified).toEqual([
      { title: 'Could not switch gone on', message: 'no MCP server named "gone".' },
      { title: 'Could not open the settings', message: 'xdg-open: not found.' },
    ]);
    h.app.stop(0);
  });

  it('says when the daemon is down, recovers by itself, and starts it on request', async () => {
    const h = harness();
    h.daemon.running = false;
    await h.app.start();
    expect(lastText(h)).toContain('(Blitz daemon not running)\n────\nStart daemon');

    h.daemon.running = true;
    await h.clock.advanceSettling(2_000, settle);
    expect(lastText(h)).toContain('(Blitz — no MCP servers)');

    await h.app.handle({ kind: 'quitBlitz' });
    expect(h.daemon.requests).toContain('shutdown');
    expect(await h.app.done).toBe(0);
  });

  it('Start daemon shows it starting, then the daemon', async () => {
    const h = harness();
    h.daemon.running = false;
    await h.app.start();
    await h.app.handle({ kind: 'startDaemon' });
    expect(h.drawn.map((m) => m.tooltip)).toEqual(['Blitz daemon not running', 'Blitz daemon starting…', 'Blitz — no MCP servers']);
    h.app.stop(0);
  });

  it('Start at login: a check item that follows the setting', async () => {
    const h = harness();
    await h.app.start();
    expect(lastText(h)).toContain('[ ] Start at login');
    await h.app.handle({ kind: 'toggleStartAtLogin', enable: true });
    expect(h.autostart.enabled).toBe(true);
    expect(lastText(h)).toContain('[x] Start at login');
    h.app.stop(0);
  });

  it('notifies each notice once, also across a tray restart; a new daemon restarts ids at 1', async () => {
    const clock = new FakeClock(T0);
    const daemon = new FakeDaemon();
    const store = { cursor: undefined as NoticeCursor | undefined };
    daemon.servers = [server('broken', 'paused')];
    const first = harness({ clock, daemon, store });
    daemon.notice('failed', 'broken');
    await first.app.start();
    daemon.notice('paused', 'broken');
    await clock.advanceSettling(4_000, settle);
    expect(first.notified.map((n) => n.title)).toEqual(['Blitz: broken failed', 'Blitz: broken paused']);
    expect(store.cursor).toMatchObject({ daemon: daemon.identity, lastNoticeId: 2, told: { broken: { kind: 'paused' } } });
    expect(daemon.requests.filter((r) => r.startsWith('status')).at(-1)).toBe('status after=2');
    first.app.stop(0);

    const second = harness({ clock, daemon, store });
    await second.app.start();
    await clock.advanceSettling(4_000, settle);
    expect(second.notified).toEqual([]);

    // The daemon restarted: same ids again, but new notices.
    daemon.identity = { pid: 5151, startedAt: '2026-11-29T12:00:05.000Z' };
    daemon.notices = [];
    daemon.notice('recovered', 'broken', clock.now());
    daemon.servers = [server('broken', 'connected')];
    await clock.advanceSettling(2_000, settle);
    expect(second.notified.map((n) => n.title)).toEqual(['Blitz: broken recovered']);
    // It fails again before it held: flapping, told once as such (issue 29.4).
    daemon.notice('failed', 'broken', clock.now());
    daemon.notice('recovered', 'broken', clock.now());
    daemon.notice('failed', 'broken', clock.now());
    await clock.advanceSettling(2_000, settle);
    expect(second.notified.map((n) => n.title)).toEqual(['Blitz: broken recovered', 'Blitz: broken keeps failing']);
    daemon.servers = [server('broken', 'connected')];
    await clock.advanceSettling(STABLE_MS + 2_000, settle);
    expect(second.notified.map((n) => n.title)).toEqual([
      'Blitz: broken recovered',
      'Blitz: broken keeps failing',
      'Blitz: broken recovered',
    ]);
    second.app.stop(0);
  });

  it('a daemon seen for the first time: only its fresh notices are shown', async () => {
    const h = harness();
    h.daemon.notice('failed', 'old', T0 - 60 * 60_000);
    h.daemon.notice('failed', 'new', T0 - 60_000);
    await h.app.start();
    expect(h.notified.map((n) => n.title)).toEqual(['Blitz: new failed']);
    expect(h.store.cursor?.lastNoticeId).toBe(2);
    h.app.stop(0);
  });

  it('a refused settings edit is told once, whole: not at every poll, not after a tray restart; again once it changed', async () => {
    const clock = new FakeClock(T0);
    const daemon = new FakeDaemon();
    const store: { cursor: NoticeCursor | undefined; problems?: string[] } = { cursor: undefined };
    const long = `/home/u/.config/blitz/settings.toml:12: server "broken": ${'a command (stdio) or a url is needed; '.repeat(4)}end`;
    daemon.problems = [long];
    const first = harness({ clock, daemon, store });
    await first.app.start();
    await clock.advanceSettling(6_000, settle);
    expect(first.notified).toEqual([{ title: 'Blitz: settings not applied', message: long }]);
    first.app.stop(0);

    const second = harness({ clock, daemon, store });
    await second.app.start();
    await clock.advanceSettling(4_000, settle);
    expect(second.notified).toEqual([]);

    daemon.problems = [];
    await clock.advanceSettling(2_000, settle);
    daemon.problems = [long];
    await clock.advanceSettling(2_000, settle);
    daemon.problems = ['settings.toml:3: not valid TOML'];
    await clock.advanceSettling(2_000, settle);
    expect(second.notified.map((n) => n.message)).toEqual([long, 'settings.toml:3: not valid TOML']);
    second.app.stop(0);
  });

  it("a server's Sign in item opens the settings page at that server", async () => {
    const h = harness();
    const opened: Array<string | undefined> = [];
    const app = new TrayApp({
      clock: h.clock,
      findDaemon: () => h.daemon.link(),
      surface: { show: async () => {} },
      notifier: { notify: () => {} },
      cursorStore: { load: () => undefined, save: () => {}, loadProblems: () => [], saveProblems: () => {} },
      autostart: { isEnabled: async () => false, setEnabled: async () => {} },
      openSettings: async (server) => void opened.push(server),
      startDaemon: async () => {},
      log: () => {},
    });
    await app.handle({ kind: 'openSettings', server: 'docs' });
    await app.handle({ kind: 'openSettings' });
    expect(opened).toEqual(['docs', undefined]);
    app.stop(0);
  });

  it('a surface that breaks stops the tray with exit 1', async () => {
    const h = harness();
    await h.app.start();
    const failing = new TrayApp({
      clock: h.clock,
      findDaemon: () => h.daemon.link(),
      surface: { show: async () => Promise.reject(new Error('helper gone')) },
      notifier: { notify: () => {} },
      cursorStore: { load: () => undefined, save: () => {}, loadProblems: () => [], saveProblems: () => {} },
      autostart: { isEnabled: async () => false, setEnabled: async () => {} },
      openSettings: async () => {},
      startDaemon: async () => {},
      log: () => {},
    });
    await expect(failing.start()).rejects.toThrow('helper gone');
    h.app.stop(0);
    failing.stop(1);
  });
});
