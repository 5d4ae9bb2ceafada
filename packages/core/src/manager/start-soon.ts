import type { Clock, Timer } from '@blitz/clock';
import type { ServerConnection } from '../connection/server-connection.js';

/** Cached servers start once the listings asking for them have paused this long… */
export const QUIET_MS = 250;
/** …or this long after the first of them, if they keep coming. */
export const HOLD_MS = 1_000;

/**
 * Starts the servers the catalog cache answered for (issue 18, cold start), one at a time,
 * each on a macrotask of its own, in the order asked — once the listings that asked for them
 * (a new session's initialize, then its tools/list, prompts/list, …) have paused QUIET_MS, at
 * most HOLD_MS after the first. Ten servers starting at once take both cores of a small
 * machine for a second or more: started right after the answer, they would hold the client
 * (and `blitz connect` relaying it) back from reading the answer the cache made quick. A call
 * to one of them does not wait for this: it starts its server itself. `wanted` is asked again
 * just before each start: a server removed, disabled or closed meanwhile is not started.
 */
export class StartSoon {
  readonly #wanted: (connection: ServerConnection) => boolean;
  readonly #clock: Clock;
  readonly #queue = new Set<ServerConnection>();
  /** Starting the queue, one a macrotask. */
  #starting = false;
  /** While waiting: the timer, and when the first listing asked. */
  #waiting: { timer: Timer; since: number } | undefined;

  constructor(wanted: (connection: ServerConnection) => boolean, clock: Clock) {
    this.#wanted = wanted;
    this.#clock = clock;
  }

  /** A listing answered for `connection` from the cache: it starts once the listings pause. */
  add(connection: ServerConnection): void {
    this.#queue.add(connection);
    if (this.#starting) return;
    const now = this.#clock.now();
    const since = this.#waiting?.since ?? now;
    this.#waiting?.timer.cancel();
    const timer = this.#clock.setTimeout(() => this.#start(), Math.max(0, Math.min(QUIET_MS, since + HOLD_MS - now)));
    this.#waiting = { timer, since };
  }

  #start(): void {
    this.#waiting = undefined;
    this.#starting = true;
    this.#next();
  }

  #next(): void {
    const [connection] = this.#queue;
    if (connection) {
      this.#queue.delete(connection);
      // Its failure is the connection's to report (a status, a notice).
      if (this.#wanted(connection)) void connection.tools().catch(() => undefined);
    }
    if (this.#queue.size === 0) this.#starting = false;
    else setImmediate(() => this.#next());
  }
}
