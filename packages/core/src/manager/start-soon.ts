import type { ServerConnection } from '../connection/server-connection.js';

/**
 * Starts servers one at a time, each on a macrotask of its own (setImmediate: scheduling, not
 * time), in the order asked. For servers the catalog cache answers for (issue 18, cold start):
 * a listing they do not hold is answered first, and a client's next request (its tools/list
 * after initialize) is read between two spawns instead of after ten. `wanted` is asked again
 * just before each start: a server removed, disabled or closed meanwhile is not started.
 */
export class StartSoon {
  readonly #wanted: (connection: ServerConnection) => boolean;
  readonly #queue = new Set<ServerConnection>();
  #scheduled = false;

  constructor(wanted: (connection: ServerConnection) => boolean) {
    this.#wanted = wanted;
  }

  add(connection: ServerConnection): void {
    this.#queue.add(connection);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#next());
  }

  #next(): void {
    const [connection] = this.#queue;
    if (connection) {
      this.#queue.delete(connection);
      // Its failure is the connection's to report (a status, a notice).
      if (this.#wanted(connection)) void connection.tools().catch(() => undefined);
    }
    if (this.#queue.size === 0) this.#scheduled = false;
    else setImmediate(() => this.#next());
  }
}
