import { formatDelay, type Clock, type Timer } from '@blitz/clock';
import { causeLine, explainCause } from '../causes/explain-cause.js';
import type { CauseCode, ServerCause } from '../causes/server-cause.js';
import { BlitzError } from '../errors/blitz-error.js';
import {
  admit,
  type Admission,
  DEFAULT_BREAKER_POLICY,
  INITIAL_BREAKER_STATE,
  next,
  type BreakerEffect,
  type BreakerPolicy,
  type BreakerState,
} from './breaker-policy.js';
import { sameStatus, toStatus, type BreakerStatus } from './breaker-status.js';

export type BreakerNoticeKind = BreakerEffect['kind'];

/** What the user hears (MCP-33); the manager adds an id and a time. */
export interface BreakerNotice {
  server: string;
  kind: BreakerNoticeKind;
  message: string;
  /** A failure's why and what to do, in `explainCause`'s words (absent for `recovered`). */
  causeCode?: CauseCode;
  cause?: string;
  remedy?: string;
}

/**
 * Everything a breaker reports, in the order it happens. `failure` comes for every transport
 * failure, because every failure is logged (MCP-33) though the user hears only the first.
 * `status` comes only when the public status changes.
 */
export type BreakerUpdate =
  | { type: 'failure'; server: string; reason: string; cause?: ServerCause }
  | { type: 'notice'; notice: BreakerNotice }
  | { type: 'status'; server: string; status: BreakerStatus };

export interface BreakerOptions {
  server: string;
  clock: Clock;
  onUpdate?: (update: BreakerUpdate) => void;
  /**
   * Called when a pause ends: the owner makes the trial call itself (a ping), so a paused
   * server recovers, or pauses again, without waiting for a client's call.
   */
  onCooldownEnd?: () => void;
  policy?: BreakerPolicy;
}

/** A permit to call; `trial` marks the single call that decides whether a paused server is back. */
export interface BreakerPermit {
  trial: boolean;
}

/** What an admitted use ended in, as its owner records it (`settle`). */
export type BreakerOutcome = 'success' | { failure: string; cause?: ServerCause };

/** Error `reason` for calls refused by an open breaker. */
export const BREAKER_OPEN = 'MCP_SERVER_PAUSED';

/** Drives the pure policy for one server with a clock, and reports what changed. */
export class Breaker {
  readonly server: string;
  readonly #clock: Clock;
  readonly #policy: BreakerPolicy;
  readonly #onUpdate: (update: BreakerUpdate) => void;
  readonly #onCooldownEnd: () => void;
  #state: BreakerState = INITIAL_BREAKER_STATE;
  /** The reason of the last outcome while it is a failure; a success clears it. */
  #lastFailure: string | undefined;
  /** Its facts, when the caller knew them. */
  #lastCause: ServerCause | undefined;
  /** When that failure was recorded. */
  #lastFailureAt = 0;
  #shown: BreakerStatus = { kind: 'closed' };
  /** Fires when a pause ends, so the tools come back for the trial call without anyone asking. */
  #cooldownTimer: Timer | undefined;
  #admitted = 0;

  constructor(options: BreakerOptions) {
    this.server = options.server;
    this.#clock = options.clock;
    this.#policy = options.policy ?? DEFAULT_BREAKER_POLICY;
    this.#onUpdate = options.onUpdate ?? (() => {});
    this.#onCooldownEnd = options.onCooldownEnd ?? (() => {});
  }

  /** Uses let go so far: each use of the server (a call, a start, or a call with the start it waits for) is admitted once. */
  get admitted(): number {
    return this.#admitted;
  }

  /** What `admit` would throw now, without admitting anything: for a call refused before it is made. */
  refusal(): BlitzError | undefined {
    const admission = admit(this.#state, this.#clock.now());
    return admission.kind === 'allowed' ? undefined : this.#refused(admission);
  }

  /** Lets a call go, or throws `SERVER_UNAVAILABLE` while the server is paused. */
  admit(): BreakerPermit {
    const admission = admit(this.#state, this.#clock.now());
    if (admission.kind !== 'allowed') throw this.#refused(admission);
    this.#admitted++;
    this.#apply(admission.state, []);
    this.#publish();
    return { trial: admission.trial };
  }

  #refused(admission: Exclude<Admission, { kind: 'allowed' }>): BlitzError {
    switch (admission.kind) {
      case 'coolingDown':
        return this.#unavailable(`retrying in ${formatDelay(admission.retryInMs)}`);
      case 'trialInFlight':
        return this.#unavailable('retrying now');
      default: {
        const _exhaustive: never = admission;
        return _exhaustive;
      }
    }
  }

  /**
   * The outcome of an admitted call. A tool result with `isError` is a success: only
   * transport failures (timeout, process exit, connection error) count against the server.
   */
  record(outcome: 'success'): void;
  record(outcome: 'failure', reason: string, cause?: ServerCause): void;
  record(outcome: 'success' | 'failure', reason = 'transport failure', cause?: ServerCause): void {
    this.#settle(outcome === 'success' ? 'success' : { failure: reason, ...(cause ? { cause } : {}) });
    this.#publish();
  }

  /**
   * `record` for an owner whose own state change carries the breaker's status in its one event
   * (server-connection.ts `#transition`): failures and notices go out now; the status is the
   * owner's to show, read from `status()` in the same transition.
   */
  settle(outcome: BreakerOutcome): void {
    this.#settle(outcome);
    // The owner shows this status: the breaker does not announce it again.
    this.#shown = this.status();
  }

  #settle(outcome: BreakerOutcome): void {
    const now = this.#clock.now();
    if (outcome === 'success') {
      this.#lastFailure = undefined;
      this.#lastCause = undefined;
      const { state, effects } = next(this.#state, { kind: 'success' }, now, this.#policy);
      this.#apply(state, effects);
      return;
    }
    const { failure: reason, cause } = outcome;
    this.#onUpdate({ type: 'failure', server: this.server, reason, ...(cause ? { cause } : {}) });
    this.#lastFailure = reason;
    this.#lastCause = cause;
    this.#lastFailureAt = now;
    const { state, effects } = next(this.#state, { kind: 'failure' }, now, this.#policy);
    this.#apply(state, effects, reason);
  }

  /**
   * Whether the last outcome was a failure less than the first pause ago: a client's listing
   * does not wait for such a server (it would most likely fail again, slowly).
   */
  failedRecently(): boolean {
    return this.#lastFailure !== undefined && this.#clock.now() - this.#lastFailureAt < this.#policy.baseCooldownMs;
  }

  status(): BreakerStatus {
    return toStatus(this.#state, this.#clock.now(), this.#lastFailure, this.#lastCause);
  }

  /** Stops the cooldown timer; for a server being removed. */
  dispose(): void {
    this.#cooldownTimer?.cancel();
    this.#cooldownTimer = undefined;
  }

  /** The one place state changes, notices with it; the status follows (`#publish`), or is the owner's to show (`settle`). */
  #apply(state: BreakerState, effects: readonly BreakerEffect[], reason?: string): void {
    const previous = this.#state;
    this.#state = state;
    if (state !== previous) this.#schedule();
    for (const effect of effects) this.#onUpdate({ type: 'notice', notice: this.#notice(effect, reason) });
  }

  #publish(): void {
    const status = this.status();
    if (sameStatus(status, this.#shown)) return;
    this.#shown = status;
    this.#onUpdate({ type: 'status', server: this.server, status });
  }

  #schedule(): void {
    this.dispose();
    const state = this.#state;
    if (state.kind !== 'open') return;
    const fire = (): void => {
      // Timers may fire a little early; the tools must not stay hidden because of it.
      const left = state.until - this.#clock.now();
      if (left > 0) {
        this.#cooldownTimer = this.#clock.setTimeout(fire, left);
        return;
      }
      this.#cooldownTimer = undefined;
      // The trial first: a start admitted now is shown as such, not as a moment of "paused".
      this.#onCooldownEnd();
      this.#publish();
    };
    this.#cooldownTimer = this.#clock.setTimeout(fire, state.until - this.#clock.now());
  }

  #notice(effect: BreakerEffect, reason = 'transport failure'): BreakerNotice {
    const server = this.server;
    // In the vocabulary's words: a message that does not name the server three times (issue 29.2).
    const why = explainCause(server, this.#lastCause ?? { code: 'OTHER', message: reason });
    const fields = { causeCode: why.code, cause: why.cause, ...(why.remedy === undefined ? {} : { remedy: why.remedy }) };
    switch (effect.kind) {
      case 'failed':
        return { server, kind: 'failed', message: `MCP server ${server} failed: ${causeLine(why)}`, ...fields };
      case 'paused':
        return {
          server,
          kind: 'paused',
          message: `MCP server ${server} is paused after repeated failures (${why.cause}); retrying in ${formatDelay(effect.retryInMs)}`,
          ...fields,
        };
      case 'recovered':
        return { server, kind: 'recovered', message: `MCP server ${server} recovered` };
      default: {
        const _exhaustive: never = effect;
        return _exhaustive;
      }
    }
  }

  #unavailable(when: string): BlitzError {
    return new BlitzError('SERVER_UNAVAILABLE', `MCP server ${this.server} is unavailable after repeated failures; ${when}`, {
      reason: BREAKER_OPEN,
    });
  }
}
