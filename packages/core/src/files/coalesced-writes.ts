import { writeTextAtomic } from './write-text-atomic.js';

/**
 * A state file written whole, atomically (0600 when new), after each change but never twice at
 * once: changes made while a write is under way go out with the next one. A write that fails
 * is said through `warn`; `flush` settles once every change so far is on disk (or reported).
 */
export class CoalescedWrites {
  readonly #file: string;
  readonly #text: () => string;
  readonly #warn: (err: Error) => void;
  #dirty = false;
  #writing: Promise<void> | undefined;

  /** `text`: the file's whole content now; `warn`: told of a write that failed. */
  constructor(file: string, text: () => string, warn: (err: Error) => void) {
    this.#file = file;
    this.#text = text;
    this.#warn = warn;
  }

  /** Something changed: the file is written again, soon. */
  changed(): void {
    this.#dirty = true;
    this.#writing ??= this.#write().finally(() => (this.#writing = undefined));
  }

  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  async #write(): Promise<void> {
    while (this.#dirty) {
      this.#dirty = false;
      try {
        await writeTextAtomic(this.#file, this.#text());
      } catch (err) {
        this.#warn(err as Error);
      }
    }
  }
}
