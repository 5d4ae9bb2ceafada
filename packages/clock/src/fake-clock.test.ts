import { describe, expect, it } from 'vitest';
import { FakeClock } from './fake-clock.js';

describe('FakeClock', () => {
  it('runs the timers that fall due, earliest first, at their own time, and skips cancelled ones', () => {
    const clock = new FakeClock(0);
    const ran: string[] = [];
    clock.setTimeout(() => ran.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => ran.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => ran.push('never'), 15).cancel();
    clock.setTimeout(() => ran.push('later'), 31);
    clock.advance(30);
    expect(ran).toEqual(['a@10', 'b@20']);
    expect(clock.now()).toBe(30);
    expect(clock.pendingTimers()).toBe(1);
  });

  it('advanceSettling lets the work a timer starts finish before the next timer runs', async () => {
    const clock = new FakeClock(0);
    const ran: string[] = [];
    const poll = () => {
      void Promise.resolve().then(() => {
        ran.push(`answer@${clock.now()}`);
        clock.setTimeout(poll, 10);
      });
    };
    clock.setTimeout(poll, 10);
    await clock.advanceSettling(30, () => new Promise((resolve) => setImmediate(resolve)));
    expect(ran).toEqual(['answer@10', 'answer@20', 'answer@30']);
  });
});
