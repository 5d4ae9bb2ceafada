import type { Clock, Timer, TimerOptions } from './clock.js';

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
}

/** A clock that moves only when a test says so; timers due by then run in order. */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #pending = new Set<Pending>();

  constructor(start = 1_700_000_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** `options.ref` is ignored: a fake clock's timers run only when a test moves it. */
  setTimeout(fn: () => void, ms: number, _options?: TimerOptions): Timer {
    const entry: Pending = { at: this.#now + Math.max(0, ms), seq: this.#seq++, fn };
    this.#pending.add(entry);
    return { cancel: () => this.#pending.delete(entry) };
  }

  /** Moves time forward by `ms`, running each timer that falls due, earliest first. */
  advance(ms: number): void {
    const target = this.#now + ms;
    while (this.#runNextDue(target));
    this.#now = target;
  }

  /**
   * As `advance`, but awaits `settle` after each timer and at the end, so the async work a
   * timer starts (a poll's request) finishes before the next timer falls due.
   */
  async advanceSettling(ms: number, settle: () => Promise<void>): Promise<void> {
    const target = this.#now + ms;
    while (this.#runNextDue(target)) await settle();
    this.#now = target;
    await settle();
  }

  pendingTimers(): number {
    return this.#pending.size;
  }

  #runNextDue(target: number): boolean {
    const next = [...this.#pending].filter((p) => p.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
    if (!next) return false;
    this.#pending.delete(next);
    this.#now = next.at;
    next.fn();
    return true;
  }
}
