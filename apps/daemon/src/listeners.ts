/**
 * Functions to call with each value emitted. Every one is called even when one throws; the
 * errors go to `onError`, or, without it, are thrown together once all have been called.
 */
export class Listeners<T> {
  readonly #listeners = new Set<(value: T) => void>();
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #what: string;

  /** `what` names them in an aggregate error: "notice listeners failed". */
  constructor(what: string, onError?: (error: unknown) => void) {
    this.#what = what;
    this.#onError = onError;
  }

  /** Adds `listener`; returns its removal. */
  add(listener: (value: T) => void): () => void {
    // A wrapper makes each subscription its own, even when one function subscribes twice.
    const entry = (value: T) => listener(value);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  clear(): void {
    this.#listeners.clear();
  }

  emit(value: T): void {
    const errors: unknown[] = [];
    // A copy, so a listener that unsubscribes (or subscribes) while called changes nothing now.
    for (const listener of [...this.#listeners]) {
      try {
        listener(value);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 0) return;
    if (this.#onError) for (const error of errors) this.#onError(error);
    else throw errors.length === 1 ? errors[0] : new AggregateError(errors, `${this.#what} failed`);
  }
}
