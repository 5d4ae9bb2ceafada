/**
 * Which field, header and parameter names hold secrets. Names are compared without case,
 * `-`, `_` or `.`, by ending, so `GITHUB_TOKEN`, `x-api-key` and `client_secret` match.
 * `key` and `code` alone are left to URL parameters: as object fields they are mostly
 * approval keys and error codes, which the audit log must keep.
 */
const SECRET_FIELD_ENDINGS = [
  'token', 'secret', 'password', 'passwd', 'apikey', 'privatekey', 'secretkey', 'verifier', 'authorization', 'cookie',
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
