import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { offersTools, sameStatus, type BreakerStatus } from '../breaker/breaker-status.js';
import type { ConnectionState } from './connection-state.js';
import type { ServerStatus } from './server-status.js';

/** A status worth an event: the status, and whether the tools the server offers may have changed with it. */
export interface StatusChange {
  status: ServerStatus;
  toolsChanged: boolean;
}

/**
 * What a connection's last `status` event showed, so that a change which shows nothing new
 * emits nothing.
 */
export class ShownStatus {
  #shown: { status: string | undefined; tools: readonly Tool[] | undefined; offered: boolean } = {
    status: undefined,
    tools: undefined,
    offered: true,
  };
  /**
   * What that status was made from. The status is a function of the state (immutable: a new
   * object for every change), the breaker's status and `disabled`; when all three are the
   * same, nothing visible changed and the status (tool names included) is not built again.
   */
  #from: { state: ConnectionState; breaker: BreakerStatus; disabled: boolean } | undefined;

  /** The change to announce for these inputs, or undefined when the outside would see nothing new. */
  next(state: ConnectionState, breaker: BreakerStatus, disabled: boolean, build: () => ServerStatus): StatusChange | undefined {
    const from = this.#from;
    // Every successful call comes here: the common case, nothing moved, is three comparisons.
    if (from && from.state === state && from.disabled === disabled && sameStatus(from.breaker, breaker)) return undefined;
    this.#from = { state, breaker, disabled };
    const status = build();
    const shown = {
      status: JSON.stringify(status),
      tools: state.kind === 'connected' ? state.tools : undefined,
      offered: offersTools(breaker),
    };
    const toolsChanged = shown.tools !== this.#shown.tools || shown.offered !== this.#shown.offered;
    if (shown.status === this.#shown.status && !toolsChanged) return undefined;
    this.#shown = shown;
    return { status, toolsChanged };
  }
}
