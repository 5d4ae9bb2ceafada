import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { isAlive } from '../../testing/no-orphans.js';
import { byParent, descendantsOf, isSameProcess, parsePsPairs, signalProcesses } from './process-tree.js';
import { REAL_WAIT } from '../../testing/real-wait.js';

describe('parsePsPairs', () => {
  it('reads `ps -A -o pid=,ppid=` as macOS prints it (right-aligned, blank lines)', () => {
    expect(parsePsPairs('    1     0\n  312     1\n 4711   312\n\n')).toEqual([
      [1, 0],
      [312, 1],
      [4711, 312],
    ]);
  });
});

describe('byParent', () => {
  it('groups every child under its parent in one pass, however many one parent has', () => {
    // Copying a parent's list for each child (as it once did) was quadratic: 30,000 children of
    // one parent took 9 s of blocked event loop here. What is checked is the grouping.
    const pairs: Array<[number, number]> = [[1, 0]];
    for (let pid = 2; pid <= 30_001; pid++) pairs.push([pid, 1]);
    pairs.push([300_000, 7]);
    const children = byParent(pairs);
    const ofInit = children(1);
    expect(ofInit).toHaveLength(30_000);
    expect([ofInit[0], ofInit.at(-1)]).toEqual([2, 30_001]);
    expect(children(7)).toEqual([300_000]);
    expect(children(0)).toEqual([1]);
    expect(children(42)).toEqual([]);
  });
});

describe.skipIf(!existsSync('/proc/self/stat'))('descendantsOf (Linux)', () => {
  it('finds a grandchild in a session of its own, with its start time; a recorded process with another start time is not signalled', async () => {
    // A child that starts a setsid() grandchild and prints its pid.
    const child = spawn(
      process.execPath,
      [
        '-e',
        "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);",
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const grandchild = await new Promise<number>((resolve) =>
      child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
    );
    try {
      const found = descendantsOf(child.pid!);
      const entry = found.find((p) => p.pid === grandchild);
      expect(entry?.start).toMatch(/^\d+$/);
      expect(isSameProcess(entry!)).toBe(true);
      signalProcesses([{ pid: grandchild, start: '1' }], 'SIGKILL');
      expect(isAlive(grandchild)).toBe(true);
      signalProcesses([entry!], 'SIGKILL');
      await vi.waitFor(() => expect(isAlive(grandchild)).toBe(false), REAL_WAIT);
    } finally {
      if (isAlive(grandchild)) process.kill(grandchild, 'SIGKILL');
      child.kill('SIGKILL');
    }
  });
});
