import { describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { IDLE_MS, SessionReaper, STREAM_GRACE_MS } from './session-reaper.js';

function setup() {
  const clock = new FakeClock();
  let gone = 0;
  const reaper = new SessionReaper(clock, () => gone++);
  return { clock, reaper, gone: () => gone };
}

describe('SessionReaper', () => {
  it('a client that never opens a stream is gone after the idle period without requests', () => {
    const { clock, reaper, gone } = setup();
    clock.advance(IDLE_MS - 1);
    reaper.activity();
    clock.advance(IDLE_MS - 1);
    expect(gone()).toBe(0);
    clock.advance(1);
    expect(gone()).toBe(1);
  });

  it('an open stream keeps the session however long it is quiet', () => {
    const { clock, reaper, gone } = setup();
    reaper.streamOpened();
    clock.advance(IDLE_MS * 10);
    expect(gone()).toBe(0);
  });

  it('a dropped stream gets a grace period to come back', () => {
    const { clock, reaper, gone } = setup();
    reaper.streamOpened();
    reaper.streamClosed();
    clock.advance(STREAM_GRACE_MS - 1);
    reaper.streamOpened();
    clock.advance(STREAM_GRACE_MS);
    expect(gone()).toBe(0);
    reaper.streamClosed();
    clock.advance(STREAM_GRACE_MS);
    expect(gone()).toBe(1);
  });

  it('stop cancels everything', () => {
    const { clock, reaper, gone } = setup();
    reaper.stop();
    clock.advance(IDLE_MS * 2);
    expect(gone()).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });
});
