import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { isAlive } from '../../testing/no-orphans.js';
import { descendantsOf, isSameProcess, parsePsPairs, signalProcesses } from './process-tree.js';

describe('parsePsPairs', () => {
  it('reads `ps -A -o pid=,ppid=` as macOS prints it (right-aligned, blank lines)', () => {
    expect(parsePsPairs('    1     0\n  312     1\n 4711   312\n\n')).toEqual([
      [1, 0],
      [312, 1],
      [4711, 312],
    ]);
  });
});

describe.skipIf(!existsSync('/proc/self/stat'))('descendantsOf (Linux)', () => {
  it('finds a grandchild in a session of its own, with its start time; a recorded process with another start time is not signalled', async () => {
    // A child that starts a setsid() grandchild and prints its pid.
    const child = spawn(process.execPath, ['-e', "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);"], { stdio: ['ignore', 'pipe', 'ignore'] });
    const grandchild = await new Promise<number>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
    try {
      const found = descendantsOf(child.pid!);
      const entry = found.find((p) => p.pid === grandchild);
      expect(entry?.start).toMatch(/^\d+$/);
      expect(isSameProcess(entry!)).toBe(true);
      signalProcesses([{ pid: grandchild, start: '1' }], 'SIGKILL');
      expect(isAlive(grandchild)).toBe(true);
      signalProcesses([entry!], 'SIGKILL');
      await vi.waitFor(() => expect(isAlive(grandchild)).toBe(false));
    } finally {
      if (isAlive(grandchild)) process.kill(grandchild, 'SIGKILL');
      child.kill('SIGKILL');
    }
  });
});
