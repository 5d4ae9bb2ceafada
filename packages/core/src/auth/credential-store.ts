import type { Clock } from '@blitz/clock';
import type { BlitzPaths } from '../config/paths.js';
import { fileSecretStore } from './file-store.js';
import { probeKeychain, type KeychainProbe } from './keychain-probe.js';
import { keychainStore } from './keychain-store.js';
import type { SecretStore, SecretStoreKind } from './secret-store.js';
import { accountFor, parseStoredCredentials, type StoredCredentials } from './stored-credentials.js';

/** Where sign-ins go on this machine, and why, for `blitz mcp list` and `blitz doctor`. */
export interface StoreBackend {
  kind: SecretStoreKind;
  /** The fallback file (used when kind is `file`, and read as a second place otherwise). */
  file: string;
  /** Why no keychain is used. */
  reason?: string;
}

export interface OpenStoreOptions {
  paths: Pick<BlitzPaths, 'secrets'>;
  /** What times the keychain's probe and calls (default the system clock). */
  clock?: Clock;
  probe?: () => Promise<KeychainProbe>;
  keychain?: () => SecretStore;
  file?: (file: string) => SecretStore;
}

/**
 * The sign-ins of MCP servers (MCP-38), one JSON value each under `mcp-oauth-<name>`: in the
 * OS keychain when one answers, else in the 0600 file. Reads look in both, since a daemon
 * started without a session bus and a CLI with one may not agree on which answers.
 */
export class CredentialStore {
  readonly backend: StoreBackend;
  readonly #primary: SecretStore;
  readonly #file: SecretStore;

  private constructor(backend: StoreBackend, primary: SecretStore, file: SecretStore) {
    this.backend = backend;
    this.#primary = primary;
    this.#file = file;
  }

  static async open(opts: OpenStoreOptions): Promise<CredentialStore> {
    const file = (opts.file ?? fileSecretStore)(opts.paths.secrets);
    const clock = opts.clock === undefined ? {} : { clock: opts.clock };
    const probe = await (opts.probe ?? (() => probeKeychain(clock)))();
    if (!probe.ok) return new CredentialStore({ kind: 'file', file: opts.paths.secrets, reason: probe.reason }, file, file);
    return new CredentialStore({ kind: 'keychain', file: opts.paths.secrets }, (opts.keychain ?? (() => keychainStore(clock)))(), file);
  }

  /** The server's sign-in; undefined when there is none (or what is kept is unreadable). */
  async read(server: string): Promise<StoredCredentials | undefined> {
    const account = accountFor(server);
    const text = (await this.#primary.get(account)) ?? (this.#primary === this.#file ? undefined : await this.#file.get(account));
    return text === undefined ? undefined : parseStoredCredentials(text);
  }

  async write(creds: StoredCredentials): Promise<void> {
    const account = accountFor(creds.server);
    await this.#primary.set(account, JSON.stringify(creds));
    // A copy left in the file from a time without a keychain would be stale: drop it.
    if (this.#primary !== this.#file) await this.#file.delete(account).catch(() => false);
  }

  /** Forgets the server's sign-in everywhere it may be kept; true when there was one. */
  async forget(server: string): Promise<boolean> {
    const account = accountFor(server);
    const fromPrimary = await this.#primary.delete(account);
    const fromFile = this.#primary === this.#file ? false : await this.#file.delete(account);
    return fromPrimary || fromFile;
  }

  /** One line for list and doctor. */
  describe(): string {
    return this.backend.kind === 'keychain'
      ? 'the OS keychain (service "blitz")'
      : `${this.backend.file} (mode 0600), since no OS keychain answered${this.backend.reason ? `: ${this.backend.reason}` : ''}`;
  }
}
