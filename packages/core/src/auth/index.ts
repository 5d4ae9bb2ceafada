export {
  accountFor,
  describeClientSource,
  matchesServerUrl,
  needsRefresh,
  parseStoredCredentials,
  REFRESH_AHEAD_MS,
  SECRET_SERVICE,
  secretsOf,
  type ClientSource,
  type StoredCredentials,
} from './stored-credentials.js';
export type { SecretStore, SecretStoreKind } from './secret-store.js';
export { keychainStore, KEYCHAIN_TIMEOUT_MS } from './keychain-store.js';
export { probeKeychain, PROBE_TIMEOUT_MS, type KeychainProbe } from './keychain-probe.js';
export { fileSecretStore } from './file-store.js';
export { CredentialStore, type OpenStoreOptions, type StoreBackend } from './credential-store.js';
export { signIn, SIGN_IN_TIMEOUT_MS, type SignInOptions } from './sign-in.js';
export { remoteSession, systemBrowserOpener, type BrowserOpener } from './open-browser.js';
export { judgeRedirect, parsePastedRedirect, type RedirectParams, type RedirectVerdict } from './redirect-params.js';
export { ServerSignIn, type ServerSignInDeps } from './server-sign-in.js';
export { ServerSignIns, type ServerSignInsDeps } from './server-sign-ins.js';
export { authorizedFetch } from './authorized-fetch.js';
export { noRedirectFetch, assertSecureDiscovery } from './secure-endpoints.js';
