import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { notificationIcon, trayIcon } from './tray-icon.js';

describe('the tray icon', () => {
  it('is a 32×32 RGBA PNG, a different colour per state', () => {
    const png = Buffer.from(trayIcon('ok', 'linux'), 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([32, 32, 8, 6]);
    const idat = png.indexOf('IDAT');
    const raw = zlib.inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
    expect(raw).toHaveLength(32 * (32 * 4 + 1));
    const alphas = [...raw].filter((_, i) => i % (32 * 4 + 1) !== 0 && (i % (32 * 4 + 1)) % 4 === 0);
    expect(alphas.some((a) => a === 255) && alphas.some((a) => a === 0)).toBe(true);
    expect(new Set(['ok', 'attention', 'down'].map((k) => trayIcon(k as 'ok', 'linux'))).size).toBe(3);
  });

  it('is an ICO holding that PNG on Windows', () => {
    const ico = Buffer.from(trayIcon('ok', 'win32'), 'base64');
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4), ico.readUInt32LE(18)]).toEqual([0, 1, 1, 22]);
    expect(ico.subarray(22).toString('base64')).toBe(trayIcon('ok', 'linux'));
  });

  it('is written once as state/icon.png for notifications, and rewritten when it differs', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-icon-'));
    try {
      const file = notificationIcon(home);
      expect(file).toBe(path.join(home, 'state', 'icon.png'));
      expect(fs.readFileSync(file).toString('base64')).toBe(trayIcon('ok', 'linux'));
      const written = fs.statSync(file).mtimeMs;
      fs.utimesSync(file, 0, 0);
      notificationIcon(home);
      expect(fs.statSync(file).mtimeMs).toBe(0);
      fs.writeFileSync(file, 'not a png');
      notificationIcon(home);
      expect(fs.readFileSync(file).toString('base64')).toBe(trayIcon('ok', 'linux'));
      expect(written).toBeGreaterThan(0);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
