import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Where } from '../where.js';

/** A temporary Linux home for a test: real folders, nothing of the machine's own. */
export function tempHome(): { root: string; where: Where; cleanup: () => void } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-clients-')));
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const where: Where = {
    home,
    env: { HOME: home },
    platform: 'linux',
    listDir: (dir) => {
      try {
        return fs.readdirSync(dir);
      } catch {
        return [];
      }
    },
  };
  return { root, where, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** Compares with a golden file; `UPDATE_GOLDEN=1` rewrites it (review the diff before committing). */
export function golden(name: string, actual: string): string {
  const file = path.join(import.meta.dirname, '..', 'testdata', name);
  if (process.env.UPDATE_GOLDEN) fs.writeFileSync(file, actual);
  return fs.readFileSync(file, 'utf8');
}

export function testdata(name: string): string {
  return fs.readFileSync(path.join(import.meta.dirname, '..', 'testdata', name), 'utf8');
}
