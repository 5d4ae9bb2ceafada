import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileCursorStore, trayStatePath } from './tray-state.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

function home(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-tray-state-'));
  homes.push(dir);
  return dir;
}

describe('the tray state file', () => {
  it('keeps the cursor across stores (tray restarts), 0600', () => {
    const h = home();
    const cursor = { daemon: { pid: 3, startedAt: '2026-11-29T12:00:00.000Z' }, lastNoticeId: 4 };
    expect(fileCursorStore(h).load()).toBeUndefined();
    fileCursorStore(h).save(cursor);
    expect(fileCursorStore(h).load()).toEqual(cursor);
    expect(fs.statSync(trayStatePath(h)).mode & 0o777).toBe(0o600);
  });

  it('reads a damaged file as nothing seen', () => {
    const h = home();
    fs.mkdirSync(path.join(h, 'state'));
    fs.writeFileSync(trayStatePath(h), '{"daemon": 3');
    expect(fileCursorStore(h).load()).toBeUndefined();
    fs.writeFileSync(trayStatePath(h), '{"daemon": {"pid": "x"}, "lastNoticeId": 1}');
    expect(fileCursorStore(h).load()).toBeUndefined();
  });

  it('keeps the settings problems told beside the cursor; saving one keeps the other', () => {
    const h = home();
    const cursor = { daemon: { pid: 3, startedAt: '2026-11-29T12:00:00.000Z' }, lastNoticeId: 4 };
    expect(fileCursorStore(h).loadProblems()).toEqual([]);
    fileCursorStore(h).save(cursor);
    fileCursorStore(h).saveProblems(['settings.toml:1: bad']);
    expect(fileCursorStore(h).load()).toEqual(cursor);
    fileCursorStore(h).save({ ...cursor, lastNoticeId: 5 });
    expect(fileCursorStore(h).loadProblems()).toEqual(['settings.toml:1: bad']);
    expect(fileCursorStore(h).load()?.lastNoticeId).toBe(5);
  });
});
