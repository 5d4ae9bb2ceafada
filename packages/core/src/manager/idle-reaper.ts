import type { Clock, Timer } from '@blitz/clock';
import type { ServerConnection } from '../connection/server-connection.js';

export interface IdleReaperOptions {
  connection: ServerConnection;
  clock: Clock;
  /** The idle timeout now, in seconds: the server's own `idle_timeout_seconds`, else `[hub]`'s; `0` never. */
  timeoutSeconds(): number;
  /** A request is under way or a subscription held (ServerInterest.busy): the server stays up. */
  busy(): boolean;
}

/**
 * Stops one server when nothing has used it for its idle timeout (issue 32.1): no request
 * under way, no subscription held. The countdown starts when the server is up and again at the
 * end of each use; a use that begins meanwhile stops it. Reaping is a plain stop, not a failure
 * (ServerConnection.reap): its tools stay listed and the next call starts it again.
 */
export class IdleReaper {
  readonly #opts: IdleReaperOptions;
  #timer: Timer | undefined;
  #disposed = false;

  constructor(opts: IdleReaperOptions) {
    this.#opts = opts;
  }

  /** A use began or ended: the countdown starts afresh, if the server is up and unused. */
  used(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#arm();
  }

  /** The server's state changed: a server that came up starts counting; one that went down stops. */
  statusChanged(): void {
    if (this.#opts.connection.phase !== 'connected') {
      this.#timer?.cancel();
      this.#timer = undefined;
    } else if (!this.#timer) this.#arm();
  }

  /** The server is going for good: no countdown outlives it. */
  dispose(): void {
    this.#disposed = true;
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  #arm(): void {
    const { connection, clock } = this.#opts;
    const seconds = this.#opts.timeoutSeconds();
    if (this.#disposed || seconds <= 0 || connection.phase !== 'connected' || this.#opts.busy()) return;
    this.#timer = clock.setTimeout(() => {
      this.#timer = undefined;
      if (!this.#disposed && connection.phase === 'connected' && !this.#opts.busy()) void connection.reap();
    }, seconds * 1000);
  }
}
