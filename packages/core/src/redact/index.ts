export { Redactor } from './redactor.js';
export { MASK, mask, maskCredential, splitCredential } from './mask.js';
export { maskConfigValue, maskServerSecrets } from './mask-server-secrets.js';
export { isSecretField, isSecretParam } from './secret-names.js';
