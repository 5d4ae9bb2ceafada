import { describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { RelistWait } from './relist-wait.js';

/** Whether `p` has settled once the microtasks queued now have run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('RelistWait (a search answer held until the client lists its tools again)', () => {
  it('sends the notice, then waits for the listing that follows it', async () => {
    const wait = new RelistWait(new FakeClock(), 1_000);
    const sent: string[] = [];
    const answer = wait.notifyAndWait(async () => void sent.push('list_changed'));
    expect(await settled(answer)).toBe(false);
    expect(sent).toEqual(['list_changed']);
    wait.listed();
    expect(await settled(answer)).toBe(true);
  });

  it('a client that does not list again is waited for once, for the bound, then never again in the session', async () => {
    const clock = new FakeClock();
    const wait = new RelistWait(clock, 1_000);
    const first = wait.notifyAndWait(async () => undefined);
    clock.advance(999);
    expect(await settled(first)).toBe(false);
    clock.advance(1);
    expect(await settled(first)).toBe(true);
    let notified = false;
    expect(await settled(wait.notifyAndWait(async () => void (notified = true)))).toBe(true);
    expect(notified).toBe(true);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('two searches at once are answered by the one listing after them; a listing with no search waiting changes nothing', async () => {
    const clock = new FakeClock();
    const wait = new RelistWait(clock, 1_000);
    wait.listed();
    const a = wait.notifyAndWait(async () => undefined);
    const b = wait.notifyAndWait(async () => undefined);
    wait.listed();
    expect(await settled(Promise.all([a, b]))).toBe(true);
    expect(clock.pendingTimers()).toBe(0);
    // It followed: the next search waits again.
    const c = wait.notifyAndWait(async () => undefined);
    expect(await settled(c)).toBe(false);
    wait.listed();
    expect(await settled(c)).toBe(true);
  });
});
