export { Redactor } from './redactor.js';
export { MASK, mask, maskCredential, splitCredential } from './mask.js';
export { maskArgs, maskConfigValue, maskServerSecrets } from './mask-server-secrets.js';
export { isSecretEnv, isSecretEnvName, isSecretField, isSecretParam } from './secret-names.js';
export { looksLikeCredential } from './credential-shape.js';
export { maskUrl } from './url-secrets.js';
export { serverSecretValues } from './server-secret-values.js';
export { describeTransport } from './describe-transport.js';
