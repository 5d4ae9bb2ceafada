import type { ServerCause } from '../causes/server-cause.js';
import type { BreakerState } from './breaker-policy.js';

/**
 * The plain view the catalog, API and tray see. An `open` breaker whose cooldown has ended
 * is shown as `halfOpen` without a trial in flight: its tools are listed again for the one
 * trial call (MCP-32), which the driver makes itself when no client does.
 *
 * `lastFailure` is the reason of the last outcome when it was a failure the breaker counts
 * (timeout, exit, connection error; never a tool's `isError`): the server is shown failed
 * until a call succeeds, even while the breaker is still closed.
 */
export type BreakerStatus = (
  { kind: 'closed' } | { kind: 'open'; retryAt: number; retryInMs: number } | { kind: 'halfOpen'; trialInFlight: boolean }
) & { lastFailure?: string; lastCause?: ServerCause };

export function toStatus(state: BreakerState, now: number, lastFailure?: string, lastCause?: ServerCause): BreakerStatus {
  const failure = { ...(lastFailure === undefined ? {} : { lastFailure }), ...(lastCause === undefined ? {} : { lastCause }) };
  switch (state.kind) {
    case 'closed':
      return { kind: 'closed', ...failure };
    case 'open':
      if (now >= state.until) return { kind: 'halfOpen', trialInFlight: false, ...failure };
      return { kind: 'open', retryAt: state.until, retryInMs: state.until - now, ...failure };
    case 'halfOpen':
      return { kind: 'halfOpen', trialInFlight: true, ...failure };
    default: {
      const _exhaustive: never = state;
      return _exhaustive;
    }
  }
}

/** Whether the server's tools belong in the list: hidden only while cooling down. */
export function offersTools(status: BreakerStatus): boolean {
  switch (status.kind) {
    case 'closed':
    case 'halfOpen':
      return true;
    case 'open':
      return false;
    default: {
      const _exhaustive: never = status;
      return _exhaustive;
    }
  }
}

/** Same status for listeners: `retryInMs` shrinks with time, so it is not compared. */
export function sameStatus(a: BreakerStatus, b: BreakerStatus): boolean {
  if (a.lastFailure !== b.lastFailure) return false;
  switch (a.kind) {
    case 'closed':
      return b.kind === 'closed';
    case 'open':
      return b.kind === 'open' && b.retryAt === a.retryAt;
    case 'halfOpen':
      return b.kind === 'halfOpen' && b.trialInFlight === a.trialInFlight;
    default: {
      const _exhaustive: never = a;
      return _exhaustive;
    }
  }
}
