/**
 * The per-server circuit breaker as a pure policy (MCP-32/33): no clock, no timers, no I/O.
 * The driver in `breaker.ts` owns one state and feeds it events and the current time.
 */

export interface BreakerPolicy {
  /** Consecutive transport failures that open the breaker. */
  threshold: number;
  /** The first pause; each failed trial doubles it. */
  baseCooldownMs: number;
  maxCooldownMs: number;
}

export const DEFAULT_BREAKER_POLICY: BreakerPolicy = {
  threshold: 2,
  baseCooldownMs: 15_000,
  maxCooldownMs: 300_000,
};

/**
 * `closed` needs no "already announced" flag: the first failure of a spell always announces
 * `failed`, so `failures > 0` is exactly "this spell was announced".
 */
export type BreakerState =
  | { kind: 'closed'; failures: number }
  | { kind: 'open'; until: number; cooldownMs: number }
  /** One trial call is in flight; `cooldownMs` is the pause it ended, doubled if it fails. */
  | { kind: 'halfOpen'; cooldownMs: number };

/**
 * A `failure` is a transport failure (timeout, process exit, connection error). A tool
 * result with `isError` is the server answering, so it is a `success` here.
 */
export type BreakerEvent = { kind: 'success' } | { kind: 'failure' };

/** What the user hears (MCP-33): each once per failing spell. */
export type BreakerEffect = { kind: 'failed' } | { kind: 'paused'; retryInMs: number } | { kind: 'recovered' };

export interface Transition {
  state: BreakerState;
  effects: BreakerEffect[];
}

export type Admission =
  | { kind: 'allowed'; state: BreakerState; trial: boolean }
  | { kind: 'coolingDown'; state: BreakerState; retryInMs: number }
  | { kind: 'trialInFlight'; state: BreakerState };

export const INITIAL_BREAKER_STATE: BreakerState = { kind: 'closed', failures: 0 };

/** Whether a call may go now; the only way from `open` to `halfOpen` is admitting the trial. */
export function admit(state: BreakerState, now: number): Admission {
  switch (state.kind) {
    case 'closed':
      return { kind: 'allowed', state, trial: false };
    case 'open':
      if (now < state.until) return { kind: 'coolingDown', state, retryInMs: state.until - now };
      return { kind: 'allowed', state: { kind: 'halfOpen', cooldownMs: state.cooldownMs }, trial: true };
    case 'halfOpen':
      return { kind: 'trialInFlight', state };
    default: {
      const _exhaustive: never = state;
      return _exhaustive;
    }
  }
}

/**
 * The one transition function.
 *
 * Late results are taken at face value: a success from a call admitted before the breaker
 * opened closes it (the server answered, which is what a trial would prove); a late failure
 * while `open` changes nothing, so one outage's stragglers never stretch the pause.
 * A failed trial pauses again silently: the user already heard `paused` for this spell, and
 * a dead server must not repeat it every few minutes (the driver still reports each failure
 * for the log).
 */
export function next(state: BreakerState, event: BreakerEvent, now: number, policy: BreakerPolicy = DEFAULT_BREAKER_POLICY): Transition {
  switch (event.kind) {
    case 'success':
      return onSuccess(state);
    case 'failure':
      return onFailure(state, now, policy);
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

function onSuccess(state: BreakerState): Transition {
  switch (state.kind) {
    case 'closed':
      // A lone announced failure followed by success still says `recovered`: hearing
      // "failed" and then nothing leaves the user thinking the server is still broken.
      return { state: INITIAL_BREAKER_STATE, effects: state.failures > 0 ? [{ kind: 'recovered' }] : [] };
    case 'open':
    case 'halfOpen':
      return { state: INITIAL_BREAKER_STATE, effects: [{ kind: 'recovered' }] };
    default: {
      const _exhaustive: never = state;
      return _exhaustive;
    }
  }
}

function onFailure(state: BreakerState, now: number, policy: BreakerPolicy): Transition {
  switch (state.kind) {
    case 'closed': {
      const failures = state.failures + 1;
      const effects: BreakerEffect[] = failures === 1 ? [{ kind: 'failed' }] : [];
      if (failures < policy.threshold) return { state: { kind: 'closed', failures }, effects };
      const cooldownMs = policy.baseCooldownMs;
      effects.push({ kind: 'paused', retryInMs: cooldownMs });
      return { state: { kind: 'open', until: now + cooldownMs, cooldownMs }, effects };
    }
    case 'open':
      return { state, effects: [] };
    case 'halfOpen': {
      const cooldownMs = Math.min(state.cooldownMs * 2, policy.maxCooldownMs);
      return { state: { kind: 'open', until: now + cooldownMs, cooldownMs }, effects: [] };
    }
    default: {
      const _exhaustive: never = state;
      return _exhaustive;
    }
  }
}
