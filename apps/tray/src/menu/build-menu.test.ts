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
      "icon: attention · tooltip: Blitz — 1 failed, 1 paused, 1 needs sign-in, 1 starting, 1 connected, 1 idle
      (Blitz — 1 failed, 1 paused, 1 needs sign-in, 1 starting, 1 connected, 1 idle)
      ────
      MCP servers ▸
        [x] fs
        [x] memory
        [x] slow — starting…
        [x] github — paused, retrying in 30s
        [x] broken — failed: exit-at-start: FAKE_API_KEY is not set
        [x] docs — needs sign-in
        Sign in to docs…
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
      "icon: attention · tooltip: Blitz — 1 server connected / Settings not applied: settings.toml:12: server "broken": needs a command (stdio) or a url; another
      (Blitz — 1 server connected)
      (Settings not applied: settings.toml:12: server "broken": needs a)
      (command (stdio) or a url; another)
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

  it.each<[string, GlobalServerStatus[], string]>([
    ['all switched off', [server('fs', 'disabled'), server('git', 'disabled')], 'Blitz — every server switched off'],
    ['one of one connected', [server('fs', 'connected')], 'Blitz — 1 server connected'],
    ['all connected', [server('fs', 'connected'), server('git', 'connected')], 'Blitz — 2 servers connected'],
    ['all idle is no fault: they start at first use', [server('fs', 'idle'), server('git', 'idle')], 'Blitz — 2 servers ready (idle)'],
    ['one idle', [server('fs', 'idle'), server('off', 'disabled')], 'Blitz — 1 server ready (idle)'],
    ['connected and idle', [server('fs', 'connected'), server('git', 'idle')], 'Blitz — 1 connected, 1 idle'],
    ['trouble first', [server('fs', 'connected'), server('git', 'failed'), server('gh', 'failed')], 'Blitz — 2 failed, 1 connected'],
    ['all need sign-in', [server('a', 'needsSignIn'), server('b', 'needsSignIn')], 'Blitz — 2 servers need sign-in'],
    ['one needs more access', [server('a', 'needsMoreAccess'), server('b', 'connected')], 'Blitz — 1 needs more access, 1 connected'],
  ])('the header by state: %s', (_name, servers, header) => {
    const model = buildMenu(up(status(servers)), NOW);
    expect([model.items[0], model.tooltip]).toEqual([{ kind: 'note', key: 'header', text: header }, header]);
  });

  it('a settings problem too long for one item is wrapped whole over several, up to six, then cut', () => {
    const problem = `/home/u/.config/blitz/settings.toml:3: server "x": ${'field is wrong; '.repeat(30)}`;
    const lines = text(up(status([server('fs', 'idle')], { problems: [problem] })))
      .split('\n')
      .filter((l) => l.startsWith('(') && !l.startsWith('(Blitz'));
    expect(lines).toHaveLength(6);
    expect(lines.every((l) => l.length <= 66)).toBe(true);
    expect(lines[0]).toBe('(Settings not applied: settings.toml:3: server "x": field is)');
    expect(lines[5]!.endsWith('…)')).toBe(true);
    const short = text(
      up(status([server('fs', 'idle')], { problems: ['settings.toml:3: a path /very/long/' + 'x'.repeat(100) + ' here'] })),
    );
    expect(short).toContain(
      `(Settings not applied: settings.toml:3: a path /very/long/${'x'.repeat(7)})\n(${'x'.repeat(64)})\n(${'x'.repeat(29)} here)`,
    );
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
    // The daemon makes the trial itself once the pause is over.
    expect(menuText(buildMenu(paused, NOW + 31_000))).toContain('github — paused, retrying now');
  });
});
