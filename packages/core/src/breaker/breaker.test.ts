import { describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { isBlitzError } from '../errors/blitz-error.js';
import type { BreakerStatus } from './breaker-status.js';
import { Breaker, BREAKER_OPEN, type BreakerUpdate } from './breaker.js';

const T0 = 1_700_000_000_000;

function setup() {
  const clock = new FakeClock(T0);
  const updates: (BreakerUpdate | { type: 'trialDue' })[] = [];
  const breaker = new Breaker({
    server: 'github',
    clock,
    onUpdate: (u) => updates.push(u),
    onCooldownEnd: () => updates.push({ type: 'trialDue' }),
  });
  /** Returns the updates since the last call, so each step asserts exactly what it caused. */
  const take = () => updates.splice(0);
  return { clock, breaker, take };
}

/** The message of the error `admit()` throws, after checking its code. */
function refusal(breaker: Breaker): string {
  // Asked first, as it admits nothing: it must say what admit() then throws.
  const told = breaker.refusal();
  try {
    breaker.admit();
  } catch (err) {
    if (isBlitzError(err, 'SERVER_UNAVAILABLE') && err.reason === BREAKER_OPEN) {
      expect(told?.message).toBe(err.message);
      return err.message;
    }
    throw err;
  }
  throw new Error('admit() let the call go');
}

const failure = (reason: string): BreakerUpdate => ({ type: 'failure', server: 'github', reason });
const status = (s: BreakerStatus): BreakerUpdate => ({ type: 'status', server: 'github', status: s });
const TRIAL_DUE = { type: 'trialDue' } as const;
/** A failure recorded without facts is explained by its own message (`OTHER`). */
const notice = (kind: 'failed' | 'paused' | 'recovered', message: string, cause?: string): BreakerUpdate => ({
  type: 'notice',
  notice: { server: 'github', kind, message, ...(cause === undefined ? {} : { causeCode: 'OTHER', cause }) },
});

describe('Breaker', () => {
  it('announces a failure, shows it until a success, pauses, asks for the trial when the pause ends, and recovers', () => {
    const { clock, breaker, take } = setup();

    expect(breaker.admit()).toEqual({ trial: false });
    breaker.record('failure', 'MCP tool search timed out after 5m');
    expect(take()).toEqual([
      failure('MCP tool search timed out after 5m'),
      notice('failed', 'MCP server github failed: MCP tool search timed out after 5m', 'MCP tool search timed out after 5m'),
      status({ kind: 'closed', lastFailure: 'MCP tool search timed out after 5m' }),
    ]);

    breaker.record('failure', 'process exited with code 1');
    expect(take()).toEqual([
      failure('process exited with code 1'),
      notice(
        'paused',
        'MCP server github is paused after repeated failures (process exited with code 1); retrying in 15s',
        'process exited with code 1',
      ),
      status({ kind: 'open', retryAt: T0 + 15_000, retryInMs: 15_000, lastFailure: 'process exited with code 1' }),
    ]);

    expect(refusal(breaker)).toBe('MCP server github is unavailable after repeated failures; retrying in 15s');
    clock.advance(4_500);
    expect(refusal(breaker)).toBe('MCP server github is unavailable after repeated failures; retrying in 11s');
    expect(breaker.status()).toEqual({ kind: 'open', retryAt: T0 + 15_000, retryInMs: 10_500, lastFailure: 'process exited with code 1' });
    expect(take()).toEqual([]);

    clock.advance(10_499);
    expect(take()).toEqual([]);
    // The pause ends: the tools come back, and the owner is told to make the trial now.
    clock.advance(1);
    expect(take()).toEqual([TRIAL_DUE, status({ kind: 'halfOpen', trialInFlight: false, lastFailure: 'process exited with code 1' })]);

    expect(breaker.admit()).toEqual({ trial: true });
    expect(take()).toEqual([status({ kind: 'halfOpen', trialInFlight: true, lastFailure: 'process exited with code 1' })]);
    expect(refusal(breaker)).toBe('MCP server github is unavailable after repeated failures; retrying now');

    breaker.record('success');
    expect(take()).toEqual([notice('recovered', 'MCP server github recovered'), status({ kind: 'closed' })]);
    expect(breaker.admit()).toEqual({ trial: false });
    expect(take()).toEqual([]);
  });

  it('a single failure shows until a success clears it, and says recovered then', () => {
    const { breaker, take } = setup();
    breaker.record('failure', 'connection refused');
    expect(breaker.status()).toEqual({ kind: 'closed', lastFailure: 'connection refused' });
    breaker.record('success');
    expect(take()).toEqual([
      failure('connection refused'),
      notice('failed', 'MCP server github failed: connection refused', 'connection refused'),
      status({ kind: 'closed', lastFailure: 'connection refused' }),
      notice('recovered', 'MCP server github recovered'),
      status({ kind: 'closed' }),
    ]);
    breaker.record('success');
    expect(take()).toEqual([]);
  });

  it('after a failed trial pauses again for twice as long, logging the failure but not re-announcing', () => {
    const { clock, breaker, take } = setup();
    breaker.record('failure', 'a');
    breaker.record('failure', 'b');
    clock.advance(15_000);
    breaker.admit();
    take();

    breaker.record('failure', 'c');
    expect(take()).toEqual([failure('c'), status({ kind: 'open', retryAt: T0 + 45_000, retryInMs: 30_000, lastFailure: 'c' })]);
    expect(refusal(breaker)).toBe('MCP server github is unavailable after repeated failures; retrying in 30s');

    clock.advance(29_999);
    expect(take()).toEqual([]);
    clock.advance(1);
    expect(take()).toEqual([TRIAL_DUE, status({ kind: 'halfOpen', trialInFlight: false, lastFailure: 'c' })]);
  });

  it('caps the pause at 5m', () => {
    const { clock, breaker } = setup();
    breaker.record('failure', 'x');
    breaker.record('failure', 'x');
    for (const cooldown of [15_000, 30_000, 60_000, 120_000, 240_000]) {
      clock.advance(cooldown);
      breaker.admit();
      breaker.record('failure', 'x');
    }
    expect(refusal(breaker)).toBe('MCP server github is unavailable after repeated failures; retrying in 5m');
    clock.advance(150_000);
    expect(refusal(breaker)).toBe('MCP server github is unavailable after repeated failures; retrying in 2m30s');
  });

  it('a late success while paused closes at once and cancels the cooldown timer', () => {
    const { clock, breaker, take } = setup();
    breaker.record('failure', 'x');
    breaker.record('failure', 'x');
    take();
    expect(clock.pendingTimers()).toBe(1);

    clock.advance(1_000);
    breaker.record('success');
    expect(take()).toEqual([notice('recovered', 'MCP server github recovered'), status({ kind: 'closed' })]);
    expect(clock.pendingTimers()).toBe(0);
    clock.advance(60_000);
    expect(take()).toEqual([]);
  });

  it('a late failure while paused is logged but changes nothing else', () => {
    const { clock, breaker, take } = setup();
    breaker.record('failure', 'x');
    breaker.record('failure', 'x');
    take();
    clock.advance(1_000);
    breaker.record('failure', 'late');
    // Only the reason shown is the newer one; the pause is not stretched.
    expect(take()).toEqual([failure('late'), status({ kind: 'open', retryAt: T0 + 15_000, retryInMs: 14_000, lastFailure: 'late' })]);
    expect(breaker.status()).toEqual({ kind: 'open', retryAt: T0 + 15_000, retryInMs: 14_000, lastFailure: 'late' });
  });

  it('dispose stops the cooldown timer', () => {
    const { clock, breaker, take } = setup();
    breaker.record('failure', 'x');
    breaker.record('failure', 'x');
    take();
    breaker.dispose();
    expect(clock.pendingTimers()).toBe(0);
    clock.advance(15_000);
    expect(take()).toEqual([]);
    expect(breaker.status()).toEqual({ kind: 'halfOpen', trialInFlight: false, lastFailure: 'x' });
  });
});

describe('Breaker with a clock whose timers fire early', () => {
  it('waits out the rest of the pause before offering the trial', () => {
    let now = 0;
    const timers: { fn: () => void; ms: number }[] = [];
    const clock = { now: () => now, setTimeout: (fn: () => void, ms: number) => (timers.push({ fn, ms }), { cancel() {} }) };
    const statuses: string[] = [];
    const breaker = new Breaker({
      server: 's',
      clock,
      onUpdate: (u) => u.type === 'status' && statuses.push(u.status.kind),
      onCooldownEnd: () => statuses.push('trial'),
    });
    breaker.record('failure', 'x');
    breaker.record('failure', 'x');

    now = 14_990;
    timers.shift()?.fn();
    expect(statuses).toEqual(['closed', 'open']);
    expect(timers).toEqual([{ fn: expect.any(Function), ms: 10 }]);

    now = 15_000;
    timers.shift()?.fn();
    expect(statuses).toEqual(['closed', 'open', 'trial', 'halfOpen']);
  });
});
