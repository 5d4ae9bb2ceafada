import { describe, expect, it } from 'vitest';
import type { BreakerState } from './breaker-policy.js';
import { offersTools, toStatus, type BreakerStatus } from './breaker-status.js';

describe('toStatus', () => {
  it.each<[string, BreakerState, number, BreakerStatus, boolean]>([
    ['closed', { kind: 'closed', failures: 1 }, 0, { kind: 'closed' }, true],
    ['cooling down', { kind: 'open', until: 15_000, cooldownMs: 15_000 }, 5_000, { kind: 'open', retryAt: 15_000, retryInMs: 10_000 }, false],
    ['cooldown over, waiting for the trial', { kind: 'open', until: 15_000, cooldownMs: 15_000 }, 15_000, { kind: 'halfOpen', trialInFlight: false }, true],
    ['trial in flight', { kind: 'halfOpen', cooldownMs: 15_000 }, 20_000, { kind: 'halfOpen', trialInFlight: true }, true],
  ])('%s', (_name, state, now, status, listed) => {
    expect(toStatus(state, now)).toEqual(status);
    expect(offersTools(status)).toBe(listed);
  });
});
