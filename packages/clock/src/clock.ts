/** Time as a dependency: production uses the system clock, tests a `FakeClock`. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number, options?: TimerOptions): Timer;
}

export interface TimerOptions {
  /**
   * The timer keeps the process alive while it is pending (default false: a timer never holds
   * a daemon or a CLI open by itself). For a wait the process exists for, as a CLI command
   * waiting on a lock. A fake clock has no process to keep and ignores it.
   */
  readonly ref?: boolean;
}

export interface Timer {
  cancel(): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms, options) {
    const handle = setTimeout(fn, ms);
    if (!options?.ref) handle.unref?.();
    return { cancel: () => clearTimeout(handle) };
  },
};
