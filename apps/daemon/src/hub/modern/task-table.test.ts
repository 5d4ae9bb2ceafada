import { describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { TaskTable } from './task-table.js';

const OWNER = { root: '/work/app', agent: 'main' };
const made = (taskId: string, ttlMs: number | null = 60_000) => ({ resultType: 'task' as const, taskId, ttlMs });

describe('TaskTable', () => {
  it('hands out an id of its own for each task, found again only by the same workspace and agent', () => {
    const table = new TaskTable(new FakeClock());
    const a = table.add(OWNER, 'one', made('t1'));
    const b = table.add(OWNER, 'two', made('t1'));
    expect(a).not.toBe(b);
    expect(table.find(a, OWNER)).toMatchObject({ server: 'one', taskId: 't1' });
    expect(table.find(b, OWNER)).toMatchObject({ server: 'two', taskId: 't1' });
    expect(table.find(a, { ...OWNER, agent: 'reviewer' })).toBeUndefined();
    expect(table.find(a, { ...OWNER, root: '/work/other' })).toBeUndefined();
    expect(table.find('t1', OWNER)).toBeUndefined();
  });

  it('forgets a task past its TTL, counted from when it was made and renewed as its server says; null is unlimited', () => {
    const clock = new FakeClock();
    const table = new TaskTable(clock);
    const short = table.add(OWNER, 'one', made('t1', 1_000));
    const renewed = table.add(OWNER, 'one', made('t2', 1_000));
    const unlimited = table.add(OWNER, 'one', made('t3', null));
    table.renew(renewed, 5_000);
    clock.advance(1_000);
    expect(table.find(short, OWNER)).toBeUndefined();
    expect(table.find(renewed, OWNER)).toBeDefined();
    clock.advance(4_000);
    expect(table.find(renewed, OWNER)).toBeUndefined();
    clock.advance(365 * 24 * 3600 * 1000);
    expect(table.find(unlimited, OWNER)).toBeDefined();
  });

  it('keeps at most its limit, forgetting the oldest first', () => {
    const table = new TaskTable(new FakeClock(), 2);
    const ids = ['t1', 't2', 't3'].map((t) => table.add(OWNER, 'one', made(t, null)));
    expect(ids.map((id) => table.find(id, OWNER)?.taskId)).toEqual([undefined, 't2', 't3']);
  });
});
