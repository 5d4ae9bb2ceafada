import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogFile } from './log-file.js';

const posix = process.platform !== 'win32';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-logfile-'));
  file = path.join(dir, 'logs', 'blitz.log');
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const lines = (p: string) => fs.readFileSync(p, 'utf8').split('\n').filter(Boolean);

describe('LogFile', () => {
  it('rotates by size, keeping three old files and the newest lines, in order', () => {
    const log = new LogFile({ path: file, maxBytes: 200 });
    const written = Array.from({ length: 100 }, (_, i) => `line ${String(i).padStart(3, '0')}`);
    for (const line of written) log.append(`${line}\n`);
    log.close();

    const names = fs.readdirSync(path.dirname(file)).sort();
    expect(names).toEqual(['blitz.log', 'blitz.log.1', 'blitz.log.2', 'blitz.log.3']);
    const kept = [3, 2, 1].flatMap((n) => lines(`${file}.${n}`)).concat(lines(file));
    expect(kept).toEqual(written.slice(written.length - kept.length));
    for (const name of names) expect(fs.statSync(path.join(path.dirname(file), name)).size).toBeLessThanOrEqual(200);
  });

  it('counts what the file already holds when it opens', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'x'.repeat(190) + '\n');
    const log = new LogFile({ path: file, maxBytes: 200 });
    log.append('next line\n');
    log.close();
    expect(lines(file)).toEqual(['next line']);
    expect(lines(`${file}.1`)).toEqual(['x'.repeat(190)]);
  });

  it('writes a line longer than the limit alone in a fresh file', () => {
    const log = new LogFile({ path: file, maxBytes: 10 });
    log.append('short\n');
    log.append(`${'y'.repeat(50)}\n`);
    log.append('after\n');
    log.close();
    expect([lines(`${file}.2`), lines(`${file}.1`), lines(file)]).toEqual([['short'], ['y'.repeat(50)], ['after']]);
  });

  it('opens again after close', () => {
    const log = new LogFile({ path: file });
    log.append('one\n');
    log.close();
    log.append('two\n');
    log.close();
    expect(lines(file)).toEqual(['one', 'two']);
  });

  it.runIf(posix)('creates the file 0600 in a folder 0700, rotated files included', () => {
    const log = new LogFile({ path: file, maxBytes: 10 });
    log.append('first line\n');
    log.append('second line\n');
    log.close();
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(mode(`${file}.1`)).toBe(0o600);
  });

  it.runIf(posix)('narrows a folder and a file made earlier with wider modes', () => {
    fs.mkdirSync(path.dirname(file), { mode: 0o755 });
    fs.writeFileSync(file, '', { mode: 0o644 });
    fs.chmodSync(path.dirname(file), 0o755);
    fs.chmodSync(file, 0o644);
    const log = new LogFile({ path: file });
    log.append('line\n');
    log.close();
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
  });
});
