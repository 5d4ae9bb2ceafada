import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureHelperExecutable, helperName, type Chmod } from './helper-binary.js';

const NAME = helperName(process.platform);
let cwd: string;

beforeEach(() => {
  cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-helper-')));
});

afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

/** A helper as systray2 publishes it: mode 644. */
function publishedHelper(content = 'helper v1'): string {
  const file = path.join(cwd, 'traybin', NAME!);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode: 0o644 });
  fs.chmodSync(file, 0o644);
  return file;
}

/** What chmod answers on a file owned by root, for a user. */
const refused: Chmod = () => {
  throw Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' });
};

describe.skipIf(process.platform === 'win32' || !NAME)('ensureHelperExecutable', () => {
  it('sets the run bit on the packaged helper when it may', () => {
    const file = publishedHelper();
    expect(ensureHelperExecutable(process.platform, cwd)).toBe(file);
    expect(fs.statSync(file).mode & 0o755).toBe(0o755);
  });

  it('runs an executable copy under state/ when the packaged helper is not its to change', () => {
    const file = publishedHelper();
    const copy = ensureHelperExecutable(process.platform, cwd, refused);
    expect(copy).toBe(path.join(cwd, 'state', 'tray-helper', NAME!));
    expect(fs.statSync(copy).mode & 0o777).toBe(0o755);
    expect(fs.readFileSync(copy, 'utf8')).toBe('helper v1');
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
  });

  it('keeps the copy while it matches, and refreshes it when the package changes', () => {
    publishedHelper();
    const copy = ensureHelperExecutable(process.platform, cwd, refused);
    const inode = fs.statSync(copy).ino;
    expect(ensureHelperExecutable(process.platform, cwd, refused)).toBe(copy);
    expect(fs.statSync(copy).ino).toBe(inode);
    publishedHelper('helper v2');
    ensureHelperExecutable(process.platform, cwd, refused);
    expect(fs.readFileSync(copy, 'utf8')).toBe('helper v2');
  });

  it('says what to run when neither works', () => {
    const file = publishedHelper();
    fs.mkdirSync(path.join(cwd, 'state'));
    fs.writeFileSync(path.join(cwd, 'state', 'tray-helper'), 'a file where the folder would go');
    expect(() => ensureHelperExecutable(process.platform, cwd, refused)).toThrow(
      `the tray helper ${file} is not executable and cannot be made so (EPERM; a copy at ${path.join(cwd, 'state', 'tray-helper', NAME!)} failed too: EEXIST): run chmod 755 "${file}"`,
    );
  });
});
