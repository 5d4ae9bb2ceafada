import { createRequire } from 'node:module';
import { systemClock, type Clock, type Timer } from '@blitz/clock';
import { BlitzError } from '../errors/blitz-error.js';
import type { SecretStore } from './secret-store.js';
import { SECRET_SERVICE } from './stored-credentials.js';

/** A keychain that does not answer within this long is treated as failed, never waited for. */
export const KEYCHAIN_TIMEOUT_MS = 5_000;

type KeyringModule = typeof import('@napi-rs/keyring');

/** The native module, loaded on first use so a platform without its binary still runs the rest of Blitz. */
export function loadKeyring(): KeyringModule {
  return createRequire(import.meta.url)('@napi-rs/keyring') as KeyringModule;
}

/** Resolved path of the native module, for the probe that loads it in a child process. */
export function keyringModulePath(): string {
  return createRequire(import.meta.url).resolve('@napi-rs/keyring');
}

/**
 * Entry options: on Linux the secret-service store explicitly, since the default silently
 * falls back to the kernel keyring (lost at reboot) when no session bus answers.
 */
export const ENTRY_OPTIONS = { linux: { store: 'secret-service' as const } };

export interface KeychainOptions {
  /** How long a call may take (default `KEYCHAIN_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** What times the calls (default the system clock). */
  clock?: Clock;
}

/** The OS keychain (service `blitz`), every call bounded by a timeout. */
export function keychainStore(opts: KeychainOptions = {}): SecretStore {
  const bound = { timeoutMs: opts.timeoutMs ?? KEYCHAIN_TIMEOUT_MS, clock: opts.clock ?? systemClock };
  const entry = (account: string) => {
    const { AsyncEntry } = loadKeyring();
    return new AsyncEntry(SECRET_SERVICE, account, ENTRY_OPTIONS);
  };
  return {
    kind: 'keychain',
    async get(account) {
      const value = await keychainCall('read', bound, (signal) => entry(account).getPassword(signal));
      return value ?? undefined;
    },
    async set(account, value) {
      await keychainCall('write', bound, (signal) => entry(account).setPassword(value, signal));
    },
    async delete(account) {
      return keychainCall('delete', bound, (signal) => entry(account).deleteCredential(signal));
    },
  };
}

/**
 * Runs a keychain call with an abort signal and, in case the native call ignores it, a
 * timer of our own: a locked keychain waiting for a password prompt must not hang Blitz.
 */
export async function keychainCall<T>(
  what: string,
  bound: Required<KeychainOptions>,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { timeoutMs, clock } = bound;
  const abort = new AbortController();
  let timer: Timer | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    // Ref'd: a CLI command waiting on the keychain ends with this answer, not mid-wait.
    timer = clock.setTimeout(
      () => {
        abort.abort();
        reject(new BlitzError('TIMEOUT', `the OS keychain did not answer a ${what} within ${timeoutMs / 1000}s (is it locked?)`));
      },
      timeoutMs,
      { ref: true },
    );
  });
  try {
    const work = Promise.resolve().then(() => call(abort.signal));
    work.catch(() => {});
    return await Promise.race([work, timedOut]);
  } catch (err) {
    if (err instanceof BlitzError) throw err;
    throw new BlitzError('SERVER_UNAVAILABLE', `the OS keychain refused a ${what}: ${(err as Error).message}`, { cause: err });
  } finally {
    timer?.cancel();
  }
}
