import { looksLikeCredential } from './credential-shape.js';

/**
 * Which field, header and parameter names hold secrets. Names are compared without case,
 * `-`, `_` or `.`, by ending, so `GITHUB_TOKEN`, `x-api-key` and `client_secret` match.
 * `key` and `code` alone are left to URL parameters: as object fields they are mostly
 * approval keys and error codes, which the audit log must keep.
 */
const SECRET_FIELD_ENDINGS = [
  'token',
  'secret',
  'password',
  'passwd',
  'apikey',
  'privatekey',
  'secretkey',
  'verifier',
  'authorization',
  'cookie',
];

const SECRET_PARAM_NAMES = new Set(['code', 'key', 'sig', 'signature', 'auth']);

function normalize(name: string): string {
  return name.toLowerCase().replace(/[-_.]/g, '');
}

/** Field names seen so far and whether each is secret: the same few names come in every value redacted. */
const seenFields = new Map<string, boolean>();
const SEEN_FIELDS_MAX = 4096;

/** An object field, header or `name=value` word whose value is a secret. */
export function isSecretField(name: string): boolean {
  let secret = seenFields.get(name);
  if (secret === undefined) {
    const n = normalize(name);
    secret = SECRET_FIELD_ENDINGS.some((ending) => n.endsWith(ending));
    // Bounded: the names of arbitrary JSON (a tool's result) must not grow it for ever.
    if (seenFields.size >= SEEN_FIELDS_MAX) seenFields.clear();
    seenFields.set(name, secret);
  }
  return secret;
}

/** A URL query or form parameter whose value is a secret: wider, since `?key=` and `?code=` are. */
export function isSecretParam(name: string): boolean {
  const n = normalize(name);
  return isSecretField(n) || SECRET_PARAM_NAMES.has(n) || n.endsWith('key');
}

/** The last word of an env name that says its value is a secret (`GITHUB_PAT`, `AWS_SECRET_ACCESS_KEY`, `BASIC_AUTH`). */
const SECRET_ENV_LAST_WORDS = new Set([
  'key',
  'auth',
  'pat',
  'pass',
  'pwd',
  'credential',
  'credentials',
  'creds',
  'cookie',
  'session',
  'sig',
  'signature',
  'dsn',
]);

/**
 * An env variable whose value is a secret by its name (issue 26.4): a secret field name, or
 * one whose last word is `key`, `auth`, `pat`, `credential`, … `SSH_KEY_PATH` and
 * `AUTHOR` are not: a path and a word are no secrets.
 */
export function isSecretEnvName(name: string): boolean {
  if (isSecretField(name)) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[-_.]+/)
    .filter(Boolean);
  const last = words.at(-1);
  return last !== undefined && (SECRET_ENV_LAST_WORDS.has(last) || last.endsWith('credentials') || last.endsWith('credential'));
}

/** An env value that is a secret: by its variable's name, or by its own shape. */
export function isSecretEnv(name: string, value: unknown): boolean {
  return isSecretEnvName(name) || (typeof value === 'string' && looksLikeCredential(value));
}
