import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** A client's call in flight: the session that made it, and its request id (to answer on its stream). */
export interface Caller {
  server: Server;
  requestId: RequestId;
}

/** The callers of shared servers (`share = true`) are recorded here, whichever workspace they call from. */
export const SHARED_CALLERS = '';

/**
 * Who is calling which server right now, so a server's own requests during a call
 * (elicitation, sampling: MCP-37) go to the client whose call it is serving. With several
 * calls in flight to one server, the latest caller is asked.
 */
export class Callers {
  readonly #byServer = new Map<string, Caller[]>();

  /** Records a call in flight; the returned function ends it. */
  enter(workspace: string, server: string, caller: Caller): () => void {
    const key = `${workspace}\0${server}`;
    const list = this.#byServer.get(key) ?? [];
    list.push(caller);
    this.#byServer.set(key, list);
    return () => {
      const at = list.lastIndexOf(caller);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) this.#byServer.delete(key);
    };
  }

  current(workspace: string, server: string): Caller | undefined {
    return this.#byServer.get(`${workspace}\0${server}`)?.at(-1);
  }
}
