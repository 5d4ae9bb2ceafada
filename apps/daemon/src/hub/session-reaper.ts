import type { Clock, Timer } from '@blitz/clock';

/** A client whose event stream dropped gets this long to come back (reconnects are quick). */
export const STREAM_GRACE_MS = 30_000;
/** A client that never keeps a stream open is gone after this long without a request. */
export const IDLE_MS = 10 * 60_000;

/**
 * Decides when an MCP session's client is gone, since most clients just disconnect without
 * the DELETE that ends a session: while its event stream is open it lives; once the stream
 * drops it has a short grace; without a stream, a request now and then keeps it.
 */
export class SessionReaper {
  readonly #clock: Clock;
  readonly #onGone: () => void;
  #streams = 0;
  #timer: Timer | undefined;

  constructor(clock: Clock, onGone: () => void) {
    this.#clock = clock;
    this.#onGone = onGone;
    this.#arm(IDLE_MS);
  }

  activity(): void {
    if (this.#streams === 0) this.#arm(IDLE_MS);
  }

  streamOpened(): void {
    this.#streams++;
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  streamClosed(): void {
    this.#streams = Math.max(0, this.#streams - 1);
    if (this.#streams === 0) this.#arm(STREAM_GRACE_MS);
  }

  stop(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    this.#timer?.cancel();
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#onGone();
    }, ms);
  }
}
