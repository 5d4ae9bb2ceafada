/**
 * Time as a dependency (DESIGN.md rule 5): the poller and the menu's countdowns read it, and
 * tests drive a fake one instead of sleeping. The tray cannot import core's clock.
 */
export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(fn: () => void, ms: number): Timer;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(handle) };
  },
};
