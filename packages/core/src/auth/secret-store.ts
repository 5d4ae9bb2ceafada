/** Where secrets are kept: the OS keychain, or the 0600 file when no keychain answers. */
export type SecretStoreKind = 'keychain' | 'file';

/** A place to keep small secret strings by account name. */
export interface SecretStore {
  readonly kind: SecretStoreKind;
  get(account: string): Promise<string | undefined>;
  set(account: string, value: string): Promise<void>;
  /** True when something was there to delete. */
  delete(account: string): Promise<boolean>;
}
