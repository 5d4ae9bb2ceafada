import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { assertNoOrphans, canListProcesses, isAlive } from '../../testing/no-orphans.js';
import { groupMembers, signalGroup } from './process-group.js';

const leaders: number[] = [];

afterEach(async () => {
  for (const pid of leaders.splice(0)) signalGroup(pid, 'SIGKILL');
  await assertNoOrphans();
});

/** A detached leader with one child in its group; resolves with both pids once the child runs. */
async function leaderWithChild(): Promise<{ leader: number; child: number }> {
  const script = `
    const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    c.on('spawn', () => console.log(c.pid));
    setInterval(() => {}, 1000);`;
  const proc = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  leaders.push(proc.pid!);
  const child = await new Promise<number>((resolve) => proc.stdout.once('data', (c: Buffer) => resolve(Number(c.toString()))));
  return { leader: proc.pid!, child };
}

describe.skipIf(!canListProcesses)('signalGroup', () => {
  it('lists the members of a group', async () => {
    const { leader, child } = await leaderWithChild();
    expect(groupMembers(leader)?.sort((a, b) => a - b)).toEqual([leader, child].sort((a, b) => a - b));
  });

  it('signals the whole group', async () => {
    const { leader, child } = await leaderWithChild();
    signalGroup(leader, 'SIGTERM');
    await expect.poll(() => [isAlive(leader), isAlive(child)]).toEqual([false, false]);
  });

  it('spares the leader when asked', async () => {
    const { leader, child } = await leaderWithChild();
    signalGroup(leader, 'SIGTERM', { spareLeader: true });
    await expect.poll(() => isAlive(child)).toBe(false);
    expect(isAlive(leader)).toBe(true);
  });

  it('ignores a group that is already gone', () => {
    expect(() => signalGroup(2 ** 22 + 12345, 'SIGKILL')).not.toThrow();
  });
});
