import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBoundedRegularFile, readBoundedRegularFileSync, type FileRead, type ReadBounds } from './read-bounded-regular-file.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(tmpdir(), 'blitz-bounded-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const onLinux = process.platform === 'linux';
const asRoot = process.getuid?.() === 0;
const bounds: ReadBounds = { maxBytes: 1024 };

/** Both twins, asserted to agree. */
async function read(file: string, b: ReadBounds = bounds): Promise<FileRead> {
  const sync = readBoundedRegularFileSync(file, b);
  expect(await readBoundedRegularFile(file, b)).toEqual(sync);
  return sync;
}

describe('readBoundedRegularFile', () => {
  it('reads a regular file, and one through a symlink', async () => {
    fs.writeFileSync(path.join(dir, 'a.json'), '{"x": 1}');
    fs.symlinkSync('a.json', path.join(dir, 'link.json'));
    expect(await read(path.join(dir, 'a.json'))).toEqual({ kind: 'read', bytes: Buffer.from('{"x": 1}') });
    expect(await read(path.join(dir, 'link.json'))).toEqual({ kind: 'read', bytes: Buffer.from('{"x": 1}') });
  });

  it('reads a file of exactly the bound, and an empty one', async () => {
    fs.writeFileSync(path.join(dir, 'full'), 'x'.repeat(1024));
    fs.writeFileSync(path.join(dir, 'empty'), '');
    expect(await read(path.join(dir, 'full'))).toMatchObject({ kind: 'read', bytes: Buffer.from('x'.repeat(1024)) });
    expect(await read(path.join(dir, 'empty'))).toEqual({ kind: 'read', bytes: Buffer.alloc(0) });
  });

  it('says missing for no file, a dangling link, or a path under a file', async () => {
    fs.symlinkSync('nowhere', path.join(dir, 'dangling'));
    fs.writeFileSync(path.join(dir, 'plain'), '');
    for (const file of ['absent', 'dangling', 'plain/inner']) expect(await read(path.join(dir, file))).toEqual({ kind: 'missing' });
  });

  it('refuses a file past the bound without reading it, saying its size', async () => {
    fs.writeFileSync(path.join(dir, 'big'), Buffer.alloc(3 * 1024 * 1024));
    expect(await read(path.join(dir, 'big'), { maxBytes: 1024 * 1024 })).toEqual({
      kind: 'refused',
      refusal: 'TOO_LARGE',
      message: 'is 3 MB, more than the 1 MB Blitz reads from such a file; it was not read',
    });
  });

  it('refuses a directory', async () => {
    fs.mkdirSync(path.join(dir, 'sub'));
    expect(await read(path.join(dir, 'sub'))).toMatchObject({
      kind: 'refused',
      refusal: 'NOT_REGULAR',
      message: expect.stringContaining('is a directory'),
    });
  });

  it.skipIf(!onLinux)('refuses a symlink to /dev/zero (a device) without reading from it', async () => {
    fs.symlinkSync('/dev/zero', path.join(dir, 'zero'));
    expect(await read(path.join(dir, 'zero'))).toMatchObject({
      kind: 'refused',
      refusal: 'NOT_REGULAR',
      message: expect.stringContaining('is a character device'),
    });
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO at once: nothing waits for a writer', async () => {
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    expect(await read(path.join(dir, 'fifo'))).toMatchObject({
      kind: 'refused',
      refusal: 'NOT_REGULAR',
      message: expect.stringContaining('is a FIFO'),
    });
  });

  it.skipIf(asRoot || process.platform === 'win32')(
    'refuses a file it may not read, saying so (skipped as root, who may read anything)',
    async () => {
      fs.writeFileSync(path.join(dir, 'secret'), 'x', { mode: 0o000 });
      expect(await read(path.join(dir, 'secret'))).toEqual({
        kind: 'refused',
        refusal: 'UNREADABLE',
        message: 'cannot be read: permission denied (EACCES)',
      });
    },
  );
});

describe('readBoundedRegularFile on a file larger than its stat says', () => {
  // /proc files are regular files of size 0 with content: the reader starts with room for
  // one byte, as for a file that grew after its stat, and must read on — up to the bound.
  it.skipIf(!onLinux)('reads on past the size it was told, and refuses once past the bound', async () => {
    const file = '/proc/version';
    const whole = fs.readFileSync(file);
    expect(fs.statSync(file).size).toBe(0);
    expect(readBoundedRegularFileSync(file, { maxBytes: 4096 })).toEqual({ kind: 'read', bytes: whole });
    expect(await readBoundedRegularFile(file, { maxBytes: 4096 })).toEqual({ kind: 'read', bytes: whole });
    expect(readBoundedRegularFileSync(file, { maxBytes: 16 })).toEqual({
      kind: 'refused',
      refusal: 'TOO_LARGE',
      message: 'is over 16 bytes, more than the 16 bytes Blitz reads from such a file; it was not read',
    });
  });
});
