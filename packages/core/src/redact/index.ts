export { Redactor } from './redactor.js';
export { MASK, mask, maskCredential, splitCredential } from './mask.js';
export { maskArgs, maskConfigValue, maskServerSecrets } from './mask-server-secrets.js';
export { isSecretField, isSecretParam } from './secret-names.js';
export { serverSecretValues } from './server-secret-values.js';
