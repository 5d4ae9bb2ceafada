import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockTray } from './tray-lock.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-tray-lock-'));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

describe('one tray per home', () => {
  it('refuses a second tray while the first one lives, naming its pid', () => {
    fs.mkdirSync(path.join(home, 'state'));
    // This test runner's parent stands in for a running tray.
    fs.writeFileSync(path.join(home, 'state', 'tray.lock'), `${process.ppid}\n`);
    expect(lockTray(home)).toEqual({ acquired: false, pid: process.ppid });
  });

  it('takes over a lock left by a tray that died, and releases only its own', () => {
    fs.mkdirSync(path.join(home, 'state'));
    fs.writeFileSync(path.join(home, 'state', 'tray.lock'), '2147483646\n');
    const lock = lockTray(home);
    expect(lock.acquired).toBe(true);
    expect(fs.readFileSync(path.join(home, 'state', 'tray.lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    if (lock.acquired) lock.release();
    expect(fs.existsSync(path.join(home, 'state', 'tray.lock'))).toBe(false);
  });
});
