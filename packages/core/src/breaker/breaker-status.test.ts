import { describe, expect, it } from 'vitest';
import type { BreakerState } from './breaker-policy.js';
import { offersTools, sameStatus, toStatus, type BreakerStatus } from './breaker-status.js';

describe('toStatus', () => {
  it.each<[string, BreakerState, number, BreakerStatus, boolean]>([
    ['closed', { kind: 'closed', failures: 1 }, 0, { kind: 'closed' }, true],
    [
      'cooling down',
      { kind: 'open', until: 15_000, cooldownMs: 15_000 },
      5_000,
      { kind: 'open', retryAt: 15_000, retryInMs: 10_000 },
      false,
    ],
    [
      'cooldown over, waiting for the trial',
      { kind: 'open', until: 15_000, cooldownMs: 15_000 },
      15_000,
      { kind: 'halfOpen', trialInFlight: false },
      true,
    ],
    ['trial in flight', { kind: 'halfOpen', cooldownMs: 15_000 }, 20_000, { kind: 'halfOpen', trialInFlight: true }, true],
  ])('%s', (_name, state, now, status, listed) => {
    expect(toStatus(state, now)).toEqual(status);
    expect(offersTools(status)).toBe(listed);
  });

  it.each<[string, BreakerState, BreakerStatus]>([
    ['closed after a failure', { kind: 'closed', failures: 1 }, { kind: 'closed', lastFailure: 'timed out' }],
    [
      'cooling down',
      { kind: 'open', until: 15_000, cooldownMs: 15_000 },
      { kind: 'open', retryAt: 15_000, retryInMs: 10_000, lastFailure: 'timed out' },
    ],
  ])('carries the last failure: %s', (_name, state, status) => {
    expect(toStatus(state, 5_000, 'timed out')).toEqual(status);
  });
});

describe('sameStatus', () => {
  it.each<[string, BreakerStatus, BreakerStatus, boolean]>([
    ['a countdown is the same status', { kind: 'open', retryAt: 9, retryInMs: 5 }, { kind: 'open', retryAt: 9, retryInMs: 4 }, true],
    ['a new pause is not', { kind: 'open', retryAt: 9, retryInMs: 5 }, { kind: 'open', retryAt: 10, retryInMs: 5 }, false],
    ['a failure while closed is a change', { kind: 'closed' }, { kind: 'closed', lastFailure: 'x' }, false],
    ['so is another reason', { kind: 'closed', lastFailure: 'x' }, { kind: 'closed', lastFailure: 'y' }, false],
    ['a trial starting is a change', { kind: 'halfOpen', trialInFlight: false }, { kind: 'halfOpen', trialInFlight: true }, false],
  ])('%s', (_name, a, b, same) => {
    expect(sameStatus(a, b)).toBe(same);
  });
});
