import { describe, expect, it } from 'vitest';
import { admit, INITIAL_BREAKER_STATE, next, type BreakerState } from './breaker-policy.js';

/** A scenario step: an outcome, an admission check, or a number of ms passing. */
type Step = 'success' | 'failure' | 'admit' | number;

/** Plays steps from a closed breaker at t=0; returns the end state and everything said on the way. */
function play(steps: readonly Step[]): { state: BreakerState; log: string[] } {
  let state = INITIAL_BREAKER_STATE;
  let now = 0;
  const log: string[] = [];
  for (const step of steps) {
    if (typeof step === 'number') {
      now += step;
    } else if (step === 'admit') {
      const admission = admit(state, now);
      state = admission.state;
      if (admission.kind === 'allowed') log.push(admission.trial ? 'allowed trial' : 'allowed');
      else if (admission.kind === 'coolingDown') log.push(`refused ${admission.retryInMs}`);
      else log.push('refused trialInFlight');
    } else {
      const transition = next(state, { kind: step }, now);
      state = transition.state;
      for (const effect of transition.effects) log.push(effect.kind === 'paused' ? `paused ${effect.retryInMs}` : effect.kind);
    }
  }
  return { state, log };
}

const S = 'success';
const F = 'failure';
const A = 'admit';

describe('breaker policy', () => {
  it.each<[string, Step[], BreakerState, string[]]>([
    ['stays closed on success', [A, S], { kind: 'closed', failures: 0 }, ['allowed']],
    ['one failure announces but stays closed', [F], { kind: 'closed', failures: 1 }, ['failed']],
    ['one failure then success recovers without opening', [F, S], { kind: 'closed', failures: 0 }, ['failed', 'recovered']],
    ['failures must be consecutive', [F, S, F], { kind: 'closed', failures: 1 }, ['failed', 'recovered', 'failed']],
    ['opens after two consecutive failures', [F, F], { kind: 'open', until: 15_000, cooldownMs: 15_000 }, ['failed', 'paused 15000']],
    [
      'refuses while cooling down, with the time left',
      [F, F, 4_000, A],
      { kind: 'open', until: 15_000, cooldownMs: 15_000 },
      ['failed', 'paused 15000', 'refused 11000'],
    ],
    [
      'refuses 1 ms before the cooldown ends',
      [F, F, 14_999, A],
      { kind: 'open', until: 15_000, cooldownMs: 15_000 },
      ['failed', 'paused 15000', 'refused 1'],
    ],
    [
      'admits one trial when the cooldown ends',
      [F, F, 15_000, A],
      { kind: 'halfOpen', cooldownMs: 15_000 },
      ['failed', 'paused 15000', 'allowed trial'],
    ],
    [
      'refuses a second call while the trial is in flight',
      [F, F, 15_000, A, A],
      { kind: 'halfOpen', cooldownMs: 15_000 },
      ['failed', 'paused 15000', 'allowed trial', 'refused trialInFlight'],
    ],
    [
      'a successful trial closes and recovers',
      [F, F, 15_000, A, S, A],
      { kind: 'closed', failures: 0 },
      ['failed', 'paused 15000', 'allowed trial', 'recovered', 'allowed'],
    ],
    [
      'a failed trial reopens silently with the cooldown doubled',
      [F, F, 15_000, A, F],
      { kind: 'open', until: 45_000, cooldownMs: 30_000 },
      ['failed', 'paused 15000', 'allowed trial'],
    ],
    [
      'a late failure while open does not stretch the pause',
      [F, F, 5_000, F],
      { kind: 'open', until: 15_000, cooldownMs: 15_000 },
      ['failed', 'paused 15000'],
    ],
    [
      'a late success while open closes and recovers',
      [F, F, 5_000, S],
      { kind: 'closed', failures: 0 },
      ['failed', 'paused 15000', 'recovered'],
    ],
    [
      'after recovering, a new spell starts from 15 s and is announced again',
      [F, F, 15_000, A, F, 30_000, A, S, F, F],
      { kind: 'open', until: 45_000 + 15_000, cooldownMs: 15_000 },
      ['failed', 'paused 15000', 'allowed trial', 'allowed trial', 'recovered', 'failed', 'paused 15000'],
    ],
  ])('%s', (_name, steps, state, log) => {
    expect(play(steps)).toEqual({ state, log });
  });

  it.each([
    [0, 15_000],
    [1, 30_000],
    [2, 60_000],
    [3, 120_000],
    [4, 240_000],
    [5, 300_000],
    [6, 300_000],
    [10, 300_000],
  ])('after %i failed trials the cooldown is %i ms', (failedTrials, cooldownMs) => {
    const steps: Step[] = [F, F];
    let cooldown = 15_000;
    for (let i = 0; i < failedTrials; i++) {
      steps.push(cooldown, A, F);
      cooldown = Math.min(cooldown * 2, 300_000);
    }
    const { state } = play(steps);
    expect(state).toMatchObject({ kind: 'open', cooldownMs });
  });

  it('a successful trial after the cap resets the cooldown to 15 s', () => {
    const steps: Step[] = [F, F];
    for (const cooldown of [15_000, 30_000, 60_000, 120_000, 240_000, 300_000]) steps.push(cooldown, A, F);
    steps.push(300_000, A, S, F, F);
    expect(play(steps).state).toMatchObject({ kind: 'open', cooldownMs: 15_000 });
  });
});
