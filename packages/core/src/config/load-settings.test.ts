import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from './load-settings.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-load-'));
  file = path.join(dir, 'settings.toml');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('loadSettings', () => {
  it('gives empty settings and no problem for a missing file', () => {
    expect(loadSettings(file)).toMatchObject({ problems: [], text: '', settings: { servers: [] } });
  });

  it('reports bad UTF-8 as an error on its line, and uses none of the file', () => {
    fs.writeFileSync(file, Buffer.concat([Buffer.from('[[mcp.servers]]\nname = "a"\ncommand = "x"\n# '), Buffer.from([0xff, 0x0a])]));
    const loaded = loadSettings(file);
    expect(loaded.problems).toEqual([
      { severity: 'error', file, line: 4, message: 'is not valid UTF-8 (line 4, column 3); save it as UTF-8' },
    ]);
    expect(loaded.settings.servers).toEqual([]);
  });

  it('reports a directory, or a file past 8 MB, without reading it', () => {
    fs.mkdirSync(file);
    expect(loadSettings(file).problems).toEqual([
      { severity: 'error', file, message: 'is a directory, not a regular file (after following links); Blitz reads only regular files' },
    ]);
    fs.rmdirSync(file);
    fs.writeFileSync(file, '');
    fs.truncateSync(file, 9 * 1024 * 1024);
    expect(loadSettings(file).problems).toEqual([
      { severity: 'error', file, message: 'is 9 MB, more than the 8 MB Blitz reads from such a file; it was not read' },
    ]);
  });
});
