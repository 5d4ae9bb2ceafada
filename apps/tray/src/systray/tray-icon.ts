import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { TrayIconKind } from '../menu/menu-model.js';

const SIZE = 32;
/** Samples per pixel side, for smooth edges. */
const SUPERSAMPLE = 4;

/** A lightning bolt, in a 32×32 box. */
const BOLT: readonly (readonly [number, number])[] = [
  [19, 1],
  [6, 18],
  [15, 18],
  [12, 31],
  [26, 13],
  [17, 13],
  [22, 1],
];

const COLOURS: Record<TrayIconKind, readonly [number, number, number]> = {
  ok: [245, 183, 0],
  attention: [229, 72, 77],
  down: [138, 138, 138],
};

const cache = new Map<string, string>();

/**
 * The tray icon as base64, drawn here rather than shipped as files: PNG for Linux and
 * macOS, an ICO wrapping that PNG for Windows (its helper wants ICO bytes).
 */
export function trayIcon(kind: TrayIconKind, platform: NodeJS.Platform): string {
  const key = `${kind}:${platform === 'win32' ? 'ico' : 'png'}`;
  let icon = cache.get(key);
  if (icon === undefined) {
    const png = drawPng(COLOURS[kind]);
    icon = (platform === 'win32' ? wrapInIco(png) : png).toString('base64');
    cache.set(key, icon);
  }
  return icon;
}

function drawPng([r, g, b]: readonly [number, number, number]): Buffer {
  const row = SIZE * 4 + 1;
  const raw = Buffer.alloc(row * SIZE);
  for (let y = 0; y < SIZE; y++) {
    raw[y * row] = 0; // filter: none
    for (let x = 0; x < SIZE; x++) {
      const offset = y * row + 1 + x * 4;
      raw[offset] = r;
      raw[offset + 1] = g;
      raw[offset + 2] = b;
      raw[offset + 3] = Math.round(255 * coverage(x, y));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function coverage(x: number, y: number): number {
  let inside = 0;
  for (let i = 0; i < SUPERSAMPLE; i++) {
    for (let j = 0; j < SUPERSAMPLE; j++) {
      if (inBolt(x + (i + 0.5) / SUPERSAMPLE, y + (j + 0.5) / SUPERSAMPLE)) inside++;
    }
  }
  return inside / SUPERSAMPLE ** 2;
}

/** Even-odd ray casting. */
function inBolt(px: number, py: number): boolean {
  let inside = false;
  for (let i = 0, j = BOLT.length - 1; i < BOLT.length; j = i++) {
    const [xi, yi] = BOLT[i]!;
    const [xj, yj] = BOLT[j]!;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An ICO with one PNG image (Windows Vista and later read PNG inside ICO). */
function wrapInIco(png: Buffer): Buffer {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header[6] = SIZE;
  header[7] = SIZE;
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, png]);
}

/**
 * The Blitz icon as a PNG file for desktop notifications, which want a path: written to
 * `state/icon.png` under the Blitz home when missing or different, aside and renamed.
 */
export function notificationIcon(home: string, kind: 'ok' | 'attention' = 'ok'): string {
  // A failure's notification carries the icon in the tray's attention colour (issue 29.4).
  const file = path.join(home, 'state', kind === 'ok' ? 'icon.png' : 'icon-error.png');
  const png = Buffer.from(trayIcon(kind, 'linux'), 'base64');
  let current: Buffer | undefined;
  try {
    current = fs.readFileSync(file);
  } catch {
    // Not there yet.
  }
  if (!current?.equals(png)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, png, { mode: 0o644 });
    fs.renameSync(temp, file);
  }
  return file;
}
