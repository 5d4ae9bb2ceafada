import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { assertNoOrphans, canListProcesses, isAlive, liveDescendants } from './no-orphans.js';

const groups: number[] = [];

afterEach(async () => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await assertNoOrphans();
});

/** Starts `node -e script` leading its own session; resolves with its pid and first stdout line. */
async function start(script: string): Promise<{ pid: number; line: string }> {
  const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  groups.push(child.pid!);
  const line = await new Promise<string>((resolve) => child.stdout.once('data', (c: Buffer) => resolve(c.toString().trim())));
  return { pid: child.pid!, line };
}

describe.skipIf(!canListProcesses)('no-orphans', () => {
  it('finds a live child and reports it', async () => {
    const { pid } = await start("console.log('up'); setInterval(() => {}, 1000)");
    expect(liveDescendants().map((p) => p.pid)).toContain(pid);
    await expect(assertNoOrphans({ timeoutMs: 50 })).rejects.toThrow(/processes left running:\n.*setInterval/);
  });

  it('finds a grandchild whose parent died only through its session', async () => {
    const { pid, line } = await start(`
      const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      console.log(c.pid);
      c.unref();
      setTimeout(() => process.exit(0), 50);`);
    const grandchild = Number(line);
    await expect.poll(() => isAlive(pid)).toBe(false);
    expect(isAlive(grandchild)).toBe(true);
    expect(liveDescendants().map((p) => p.pid)).not.toContain(grandchild);
    expect(liveDescendants(process.pid, [pid]).map((p) => p.pid)).toEqual([grandchild]);
  });
});
