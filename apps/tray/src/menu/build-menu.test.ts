import type { GlobalServerStatus, StatusResponse } from '@blitz/client';
import { describe, expect, it } from 'vitest';
import { buildMenu, sameMenu, type TrayView } from './build-menu.js';
import { menuText } from './menu-text.js';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');

function status(servers: GlobalServerStatus[], extra: Partial<StatusResponse> = {}): StatusResponse {
  return { version: '0.1.0', pid: 4242, servers, problems: [], notices: [], lastNoticeId: 0, workspaces: 1, ...extra };
}

function server(name: string, state: GlobalServerStatus['state'], extra: Partial<GlobalServerStatus> = {}): GlobalServerStatus {
  return { name, enabled: state !== 'disabled', transport: 'stdio', state, ...extra };
}

const up = (s: StatusResponse, startAtLogin = false): TrayView => ({ daemon: 'up', status: s, startAtLogin });
const text = (view: TrayView) => menuText(buildMenu(view, NOW));

describe('the tray menu as a pure function of the status', () => {
  it('no servers: one greyed item says how to add them', () => {
    expect(text(up(status([])))).toMatchInlineSnapshot(`
      "icon: ok · tooltip: Blitz — no MCP servers
      (Blitz — no MCP servers)
      ────
      MCP servers ▸
        (No MCP servers — add one: blitz mcp add …)
      ────
      Open settings
      [ ] Start at login
      ────
      Quit tray
      Quit Blitz"
    `);
  });

  it('every server state, in settings order, checked while enabled', () => {
    const servers = [
      server('fs', 'connected'),
      server('memory', 'idle'),
      server('slow', 'starting'),
      server('github', 'paused', { retryAt: new Date(NOW + 30_000).toISOString(), error: 'spawn npx ENOENT' }),
      server('broken', 'failed', { error: 'exit-at-start: FAKE_API_KEY is not set\n    at main (server.js:1)' }),
      server('docs', 'needsSignIn', { transport: 'http' }),
      server('off', 'disabled'),
    ];
    expect(text(up(status(servers), true))).toMatchInlineSnapshot(`
      "icon: attention · tooltip: Blitz — 1 of 6 servers connected
      (Blitz — 1 of 6 servers connected)
      ────
      MCP servers ▸
        [x] fs
        [x] memory
        [x] slow — starting…
        [x] github — paused, retrying in 30s
        [x] broken — failed: exit-at-start: FAKE_API_KEY is not set
        [x] docs — needs sign-in
        [ ] off
      ────
      Open settings
      [x] Start at login
      ────
      Quit tray
      Quit Blitz"
    `);
  });

  it('daemon down: says so and offers to start it; no servers, no Quit Blitz', () => {
    expect(text({ daemon: 'down', starting: false, startAtLogin: true })).toMatchInlineSnapshot(`
      "icon: down · tooltip: Blitz daemon not running
      (Blitz daemon not running)
      ────
      Start daemon
      ────
      Open settings
      [x] Start at login
      ────
      Quit tray"
    `);
  });

  it('daemon starting: the start item is greyed while it starts', () => {
    expect(text({ daemon: 'down', starting: true, startAtLogin: false })).toMatchInlineSnapshot(`
      "icon: down · tooltip: Blitz daemon starting…
      (Blitz daemon starting…)
      ────
      (Starting daemon…)
      ────
      Open settings
      [ ] Start at login
      ────
      Quit tray"
    `);
  });

  it('a settings problem shows under the header and in the icon', () => {
    const problems = ['/home/u/.config/blitz/settings.toml:12: server "broken": needs a command (stdio) or a url', 'another'];
    expect(text(up(status([server('fs', 'connected')], { problems })))).toMatchInlineSnapshot(`
      "icon: attention · tooltip: Blitz — 1 of 1 server connected / Settings not applied: settings.toml:12: server "broken": needs a command (stdio) or a url (+1 more)
      (Blitz — 1 of 1 server connected)
      (Settings not applied: settings.toml:12: server "broken": needs a command (stdio) or a url (+1 more))
      ────
      MCP servers ▸
        [x] fs
      ────
      Open settings
      [ ] Start at login
      ────
      Quit tray
      Quit Blitz"
    `);
  });

  it('all switched off, and one of one connected', () => {
    expect(text(up(status([server('fs', 'disabled'), server('git', 'disabled')]))).split('\n')[1]).toBe('(Blitz — every server switched off)');
    expect(text(up(status([server('fs', 'connected')]))).split('\n')[1]).toBe('(Blitz — 1 of 1 server connected)');
  });

  it('a click on a server asks for the opposite of what it shows', () => {
    const model = buildMenu(up(status([server('fs', 'connected'), server('off', 'disabled')])), NOW);
    const servers = model.items.find((e) => e.key === 'servers');
    expect(servers?.kind === 'submenu' && servers.items.map((e) => (e.kind === 'check' ? e.action : undefined))).toEqual([
      { kind: 'toggleServer', server: 'fs', enable: false },
      { kind: 'toggleServer', server: 'off', enable: true },
    ]);
  });

  it('the countdown follows the clock, so the menu differs from one poll to the next while paused', () => {
    const paused = up(status([server('github', 'paused', { retryAt: new Date(NOW + 30_000).toISOString() })]));
    const first = buildMenu(paused, NOW);
    expect(sameMenu(first, buildMenu(paused, NOW))).toBe(true);
    expect(sameMenu(first, buildMenu(paused, NOW + 2_000))).toBe(false);
    expect(menuText(buildMenu(paused, NOW + 2_000))).toContain('github — paused, retrying in 28s');
    expect(menuText(buildMenu(paused, NOW + 31_000))).toContain('github — paused, retrying at the next call');
  });
});
