import type { Clock } from '@blitz/clock';
import { CredentialStore, probeKeychain, type BlitzPaths } from '@blitz/core';

/**
 * The sign-in store, opened on first need: the keychain probed (in a child process) once,
 * and again after `forget()` (a login or logout may have changed what answers). A failed
 * open is not kept, so the next need tries again.
 */
export class CredentialStoreCache {
  readonly #paths: BlitzPaths;
  readonly #env: NodeJS.ProcessEnv;
  readonly #clock: Clock;
  readonly #opened: (store: CredentialStore) => void;
  #store: Promise<CredentialStore> | undefined;

  constructor(opts: { paths: BlitzPaths; env: NodeJS.ProcessEnv; clock: Clock; onOpened(store: CredentialStore): void }) {
    this.#paths = opts.paths;
    this.#env = opts.env;
    this.#clock = opts.clock;
    this.#opened = opts.onOpened;
  }

  open(): Promise<CredentialStore> {
    const env = this.#env;
    const clock = this.#clock;
    this.#store ??= CredentialStore.open({ paths: this.#paths, clock, probe: () => probeKeychain({ env, clock }) }).then((store) => {
      this.#opened(store);
      return store;
    });
    this.#store.catch(() => (this.#store = undefined));
    return this.#store;
  }

  forget(): void {
    this.#store = undefined;
  }
}
