import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findOnPath } from './find-on-path.js';

describe('findOnPath', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  function binDir(files: Record<string, number>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-path-'));
    dirs.push(dir);
    for (const [file, mode] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), '', { mode });
    return dir;
  }

  it('finds the first executable of that name along PATH, skipping files that cannot run', () => {
    const first = binDir({ tool: 0o644 });
    const second = binDir({ tool: 0o755 });
    expect(findOnPath('tool', `${first}::${second}`, { platform: 'linux' })).toBe(path.join(second, 'tool'));
    expect(findOnPath('other', second, { platform: 'linux' })).toBeUndefined();
  });

  it('on Windows, finds a bare name by PATHEXT (npx as npx.cmd), and a name with an extension as it is', () => {
    const dir = binDir({ 'npx.cmd': 0o644, 'tool.exe': 0o644, plain: 0o755 });
    expect(findOnPath('npx', dir, { platform: 'win32' })).toBe(path.join(dir, 'npx.cmd'));
    expect(findOnPath('tool.exe', dir, { platform: 'win32' })).toBe(path.join(dir, 'tool.exe'));
    expect(findOnPath('plain', dir, { platform: 'win32' })).toBeUndefined();
    expect(findOnPath('npx', dir, { platform: 'win32', pathext: '.EXE' })).toBeUndefined();
  });
});
