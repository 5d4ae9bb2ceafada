import type { Clock } from '@blitz/clock';

/** How long a search's answer waits for the client to list the tools it activated. */
export const RELIST_WAIT_MS = 1_000;

/**
 * A `search_tools` answer held until the client has listed its tools again after the
 * `list_changed` the search sent. A client that follows the notice (Claude Code) lists again
 * at once but builds its next model request from the list it holds when the answer comes: the
 * answer sent first, the model's next turn does not have the tools just found. Held until that
 * listing has been answered, it does. A client that does not list again within `ms` (Codex,
 * or an HTTP client with no stream for notices) is not waited for again in that session.
 */
export class RelistWait {
  readonly #clock: Clock;
  readonly #ms: number;
  /** Whether the client lists again after a `list_changed`: unknown until it is first waited for. */
  #follows: boolean | undefined;
  #pending: Promise<boolean> | undefined;
  #resolve: ((relisted: boolean) => void) | undefined;

  constructor(clock: Clock, ms = RELIST_WAIT_MS) {
    this.#clock = clock;
    this.#ms = ms;
  }

  /**
   * Sends the notice (`notify`) and resolves once the client listed its tools after it
   * (`listed`), or after `ms` — at once for a client known not to follow it.
   */
  async notifyAndWait(notify: () => Promise<void>): Promise<void> {
    if (this.#follows === false) return await notify();
    // A second search while the first waits: the client's next listing answers both.
    this.#pending ??= new Promise<boolean>((resolve) => {
      const timer = this.#clock.setTimeout(() => this.#settle(false), this.#ms);
      this.#resolve = (relisted) => {
        timer.cancel();
        resolve(relisted);
      };
    });
    const pending = this.#pending;
    await notify();
    this.#follows = await pending;
  }

  #settle(relisted: boolean): void {
    const resolve = this.#resolve;
    this.#pending = undefined;
    this.#resolve = undefined;
    resolve?.(relisted);
  }

  /** The client's `tools/list` was answered (its handler returned). */
  listed(): void {
    this.#settle(true);
  }
}
