/**
 * A call's cancellation as the path of a `tools/call` needs it: whether and why it was
 * cancelled, and a callback when it is. An AbortSignal does this too, but making an
 * AbortController for every call and adding and removing an EventTarget listener at each
 * step costs the daemon more than its queue of calls otherwise would; this is a field and a
 * short list. A real AbortSignal is made only where an API takes nothing else (the SDK
 * client's request, an approval question), the first time one is asked for.
 */
export interface CallSignal {
  readonly aborted: boolean;
  /** What the call was cancelled with (as AbortSignal's `reason`); undefined until it is. */
  readonly reason: unknown;
  /** Runs `fn` once, when the call is cancelled (never, if it already was); the function returned forgets it. */
  onAbort(fn: () => void): () => void;
  /** An AbortSignal that aborts with this, with the same reason. */
  toAbortSignal(): AbortSignal;
}

/** A CallSignal to cancel: `abort` once, with a reason (an AbortError, as AbortController gives, without one). */
export class CallCancellation implements CallSignal {
  #aborted = false;
  #reason: unknown;
  #listeners: Array<() => void> | undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    this.#controller?.abort(this.#reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    for (const fn of listeners ?? []) fn();
  }

  onAbort(fn: () => void): () => void {
    if (this.#aborted) return forgotten;
    (this.#listeners ??= []).push(fn);
    return () => {
      const at = this.#listeners?.indexOf(fn) ?? -1;
      if (at >= 0) this.#listeners!.splice(at, 1);
    };
  }

  toAbortSignal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }
}

/** An AbortSignal as a CallSignal: for callers that have one already (the SDK server's handlers). */
export function callSignalOf(signal: AbortSignal): CallSignal {
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason() {
      return signal.reason as unknown;
    },
    onAbort(fn) {
      if (signal.aborted) return forgotten;
      signal.addEventListener('abort', fn, { once: true });
      return () => signal.removeEventListener('abort', fn);
    },
    toAbortSignal: () => signal,
  };
}

const forgotten = (): void => undefined;
