import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquirePidLock } from './pid-lock.js';
import { processStart } from './process-start.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-lock-'));
  file = path.join(dir, 'state', 'x.lock');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('acquirePidLock', () => {
  it('is taken once, refused while held by a live process, and released', () => {
    const first = acquirePidLock(file);
    expect(first.acquired).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      fs.writeFileSync(file, `${child.pid} ${processStart(child.pid!) ?? ''}\n`);
      expect(acquirePidLock(file)).toEqual({ acquired: false, pid: child.pid });
    } finally {
      child.kill('SIGKILL');
    }
    if (first.acquired) first.release();
  });

  it('takes over a lock whose owner died', () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${dead} 1\n`);
    const lock = acquirePidLock(file);
    expect(lock.acquired).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    expect(fs.readdirSync(path.dirname(file))).toEqual(['x.lock']);
  });

  it.skipIf(processStart(process.pid) === undefined)(
    'takes over a lock whose pid now belongs to another process (start time differs; needs /proc)',
    () => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // Our parent is alive, but it is not the process that wrote this lock.
      fs.writeFileSync(file, `${process.ppid} 1\n`);
      expect(acquirePidLock(file).acquired).toBe(true);
    },
  );

  it('release leaves a lock another process took over', () => {
    const lock = acquirePidLock(file);
    fs.writeFileSync(file, '999999 1\n');
    if (lock.acquired) lock.release();
    expect(fs.readFileSync(file, 'utf8')).toBe('999999 1\n');
  });
});
