import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshot, statKey } from './file-snapshot.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-snapshot-')));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('snapshot', () => {
  it('gives the same content key for the same bytes, another for others', () => {
    const a = path.join(dir, 'a');
    fs.writeFileSync(a, 'x = 1\n');
    const first = snapshot(a);
    fs.writeFileSync(a, 'x = 1\n');
    expect(snapshot(a).content).toBe(first.content);
    fs.writeFileSync(a, 'x = 2\n');
    expect(snapshot(a).content).not.toBe(first.content);
    expect(first.target).toBeUndefined();
  });

  it.each<[string, (p: string) => void, Partial<ReturnType<typeof snapshot>>]>([
    ['a missing file', () => {}, { stat: 'missing', content: 'missing', target: undefined }],
    ['a missing folder', () => {}, { stat: 'missing', content: 'missing' }],
    ['a file where a folder should be', (p) => fs.writeFileSync(path.dirname(p), ''), { stat: 'missing', content: 'missing' }],
    [
      'a folder where the file should be',
      (p) => fs.mkdirSync(p, { recursive: true }),
      { content: expect.stringMatching(/^refused:NOT_REGULAR:is a directory/) as string },
    ],
  ])('%s', (name, arrange, expected) => {
    const file = name.includes('folder') ? path.join(dir, 'sub', 'file') : path.join(dir, 'file');
    arrange(file);
    expect(snapshot(file)).toMatchObject(expected);
  });

  it.skipIf(process.platform !== 'linux')(
    'never reads a FIFO or a device: a hostile project file neither blocks nor fills the daemon',
    () => {
      const fifo = path.join(dir, 'fifo');
      execFileSync('mkfifo', [fifo]);
      const zero = path.join(dir, 'zero');
      fs.symlinkSync('/dev/zero', zero);
      expect(snapshot(fifo).content).toMatch(/^refused:NOT_REGULAR:is a FIFO/);
      expect(snapshot(zero)).toMatchObject({
        content: expect.stringMatching(/^refused:NOT_REGULAR:is a character device/) as string,
        target: '/dev/zero',
      });
    },
  );

  it('follows a symlink: its target, and a stat that changes when it is re-pointed', () => {
    const one = path.join(dir, 'one');
    const two = path.join(dir, 'two');
    const link = path.join(dir, 'link');
    fs.writeFileSync(one, 'same');
    fs.writeFileSync(two, 'same');
    fs.symlinkSync(one, link);
    const before = snapshot(link);
    expect(before.target).toBe(one);
    fs.rmSync(link);
    fs.symlinkSync(two, link);
    expect(snapshot(link)).toMatchObject({ target: two, content: before.content });
    expect(statKey(link)).not.toBe(before.stat);
  });

  it('gives a dangling symlink’s target, so its folder can be watched', () => {
    const link = path.join(dir, 'link');
    fs.symlinkSync(path.join('later', 'settings.toml'), link);
    expect(snapshot(link)).toEqual({ stat: 'missing', content: 'missing', target: path.join(dir, 'later', 'settings.toml') });
  });
});
