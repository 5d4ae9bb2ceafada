export { connectHttp, DELETE_TIMEOUT_MS, type HttpConnectOptions, type HttpLink } from './connect-http.js';
export { connectFailure, initializeTimeout, isUnauthorized, NeedsMoreAccess, needsSignIn } from './http-failure.js';
export { createProxyFetch, type ProxyFetch, type ProxySettings } from './proxy-fetch.js';
export {
  backoffMs,
  RETRY_POLICY,
  RETRYABLE_METHODS,
  retryAfterMs,
  retryableMethod,
  retryingFetch,
  type RetryEvent,
  type RetryingFetchOptions,
} from './retrying-fetch.js';
export { isSessionExpired, withSessionRecovery } from './session-expired.js';
