import { describe, expect, it } from 'vitest';
import { buildMenu } from '../menu/build-menu.js';
import { changedItems, entryAt, initialMenu, serverSlots, slotItems } from './slot-layout.js';

const NOW = 0;
const up = (names: string[]) =>
  buildMenu(
    {
      daemon: 'up',
      status: {
        version: '1',
        pid: 1,
        servers: names.map((name) => ({ name, enabled: true, transport: 'stdio', state: 'idle' })),
        problems: [],
        notices: [],
        lastNoticeId: 0,
        workspaces: 0,
      },
      startAtLogin: true,
    },
    NOW,
  );
const down = buildMenu({ daemon: 'down', starting: false, startAtLogin: true }, NOW);

describe('laying the menu out on the helper’s fixed slots', () => {
  it('numbers items the way systray2 does: pre-order from 1, server slots right after their submenu', () => {
    const menu = initialMenu(up(['fs']), 8, 'linux', 'ICON');
    const ids = menu.items.map((i) => [i.__id, i.title, i.hidden]);
    expect(ids).toEqual([
      [1, 'Blitz — 1 server ready (idle)', false],
      ...[2, 3, 4, 5, 6, 7].map((id) => [id, '', true]),
      [8, '<SEPARATOR>', false],
      [9, 'MCP servers', false],
      [18, '', true],
      [19, '<SEPARATOR>', false],
      [20, 'Open settings', false],
      [21, '☑ Start at login', false],
      [22, '<SEPARATOR>', false],
      [23, 'Quit tray', false],
      [24, 'Quit Blitz', false],
    ]);
    expect(menu.items[8]!.items!.map((i) => [i.__id, i.title, i.hidden])).toEqual([
      [10, '☑ fs', false],
      ...[11, 12, 13, 14, 15, 16, 17].map((id) => [id, '', true]),
    ]);
  });

  it('draws check marks into the title on Linux, and uses the checked flag elsewhere', () => {
    const linux = slotItems(up(['fs']), 8, 'linux').find((i) => i.__id === 10);
    const mac = slotItems(up(['fs']), 8, 'darwin').find((i) => i.__id === 10);
    expect([linux?.title, linux?.checked]).toEqual(['☑ fs', false]);
    expect([mac?.title, mac?.checked]).toEqual(['fs', true]);
  });

  it('the daemon going down hides the servers and Quit Blitz and shows Start daemon: only those items change', () => {
    const before = slotItems(up(['fs']), 8, 'linux');
    const after = slotItems(down, 8, 'linux');
    expect(changedItems(before, after).map((i) => [i.__id, i.title, i.hidden])).toEqual([
      [1, 'Blitz daemon not running', false],
      [9, '', true],
      [10, '', true],
      [18, 'Start daemon', false],
      [24, '', true],
    ]);
    expect(changedItems(after, slotItems(down, 8, 'linux'))).toEqual([]);
  });

  it('a click is mapped to the entry shown in its slot', () => {
    expect(entryAt(up(['fs', 'git']), 8, 11)).toMatchObject({
      key: 'server:git',
      action: { kind: 'toggleServer', server: 'git', enable: false },
    });
    expect(entryAt(up(['fs']), 8, 11)).toBeUndefined();
    expect(entryAt(down, 8, 18)).toMatchObject({ action: { kind: 'startDaemon' } });
    expect(entryAt(down, 8, 99)).toBeUndefined();
  });

  it('grows the server slots in steps of 8 and never shrinks them', () => {
    expect(serverSlots(up([]), 0)).toBe(8);
    expect(serverSlots(down, 0)).toBe(8);
    expect(serverSlots(up(['a']), 8)).toBe(8);
    expect(serverSlots(up(Array.from({ length: 9 }, (_, i) => `s${i}`)), 8)).toBe(16);
    expect(serverSlots(down, 16)).toBe(16);
  });
});
