import { FakeClock } from '@blitz/clock';
import { describe, expect, it } from 'vitest';
import { INPUT_WAIT_MS, InputWaits } from './input-waits.js';

const held = () => {
  const expired: number[] = [];
  return { expired, waiting: { expire: () => expired.push(1) } };
};

describe('InputWaits', () => {
  it('resumes the round it sealed, for the same request only', () => {
    const waits = new InputWaits(new FakeClock());
    const { waiting } = held();
    const { wait, state } = waits.seal(waiting, undefined, 'tools/call', 'ask');
    expect(waits.open(state, 'tools/call', 'ask')).toMatchObject({ ok: true, waiting, claim: { wait, round: 1 } });
    expect(waits.open(state, 'tools/call', 'other')).toMatchObject({ ok: false });
    expect(waits.open(state, 'prompts/get', 'ask')).toMatchObject({ ok: false });
    const next = waits.seal(waiting, wait, 'tools/call', 'ask');
    expect(next.state).not.toBe(state);
    expect(waits.open(state, 'tools/call', 'ask')).toMatchObject({ ok: false, message: expect.stringContaining('round 1') });
    expect(waits.open(next.state, 'tools/call', 'ask')).toMatchObject({ ok: true, claim: { round: 2 } });
  });

  it('refuses a state that was altered, forged or is not a string', () => {
    const waits = new InputWaits(new FakeClock());
    const { state } = waits.seal(held().waiting, undefined, 'tools/call', 'ask');
    const [body, mac] = state.split('.');
    const forged = Buffer.from(JSON.parse(Buffer.from(body!, 'base64url').toString()).wait.replace(/./, 'x')).toString('base64url');
    for (const bad of [`${state}-TAMPERED`, `${forged}.${mac}`, `${body}.`, 'x', 42, undefined])
      expect(waits.open(bad, 'tools/call', 'ask')).toMatchObject({ ok: false, message: expect.any(String) });
    expect(new InputWaits(new FakeClock()).open(state, 'tools/call', 'ask')).toMatchObject({
      ok: false,
      message: expect.stringContaining('integrity'),
    });
  });

  it('expires a wait nobody resumed, on the clock, once; an ended wait does not expire', () => {
    const clock = new FakeClock();
    const waits = new InputWaits(clock);
    const a = held();
    const b = held();
    const { state } = waits.seal(a.waiting, undefined, 'tools/call', 'ask');
    const ended = waits.seal(b.waiting, undefined, 'tools/call', 'ask');
    waits.end(ended.wait);
    clock.advance(INPUT_WAIT_MS - 1);
    expect(a.expired).toEqual([]);
    clock.advance(1);
    expect(a.expired).toEqual([1]);
    expect(b.expired).toEqual([]);
    expect(waits.size).toBe(0);
    expect(waits.open(state, 'tools/call', 'ask')).toMatchObject({ ok: false, message: expect.stringContaining('no longer waiting') });
    clock.advance(INPUT_WAIT_MS);
    expect(a.expired).toEqual([1]);
  });

  it('restarts the expiry at each round', () => {
    const clock = new FakeClock();
    const waits = new InputWaits(clock);
    const a = held();
    const { wait } = waits.seal(a.waiting, undefined, 'tools/call', 'ask');
    clock.advance(INPUT_WAIT_MS - 1);
    waits.seal(a.waiting, wait, 'tools/call', 'ask');
    clock.advance(INPUT_WAIT_MS - 1);
    expect(a.expired).toEqual([]);
    clock.advance(1);
    expect(a.expired).toEqual([1]);
  });

  it('expires every wait at once when the daemon stops', () => {
    const clock = new FakeClock();
    const waits = new InputWaits(clock);
    const a = held();
    const b = held();
    waits.seal(a.waiting, undefined, 'tools/call', 'x');
    waits.seal(b.waiting, undefined, 'prompts/get', 'y');
    waits.expireAll();
    expect([a.expired, b.expired, waits.size]).toEqual([[1], [1], 0]);
    clock.advance(INPUT_WAIT_MS);
    expect([a.expired, b.expired]).toEqual([[1], [1]]);
  });
});
