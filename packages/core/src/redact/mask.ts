/** What every hidden value shows: nothing of the value, not even its length. */
export const MASK = '***';

/** Authorization schemes shown in front of a masked credential: they say how, not what. */
const AUTH_SCHEME = /^(?:Bearer|Basic|Digest|Token|Bot|Negotiate|NTLM)\s+(?=\S)/i;

/** Masks a value for display; an empty value stays empty, since it hides nothing. */
export function mask(value: string): string {
  return value === '' ? '' : MASK;
}

/** Like `mask`, but keeps a leading authorization scheme: `Bearer abc123` → `Bearer ***`. */
export function maskCredential(value: string): string {
  const split = splitCredential(value);
  return split ? `${split.scheme}${MASK}` : mask(value);
}

/**
 * Splits `Bearer abc` into the scheme with its space (`Bearer `) and the credential (`abc`),
 * which is a secret on its own (MCP-42).
 */
export function splitCredential(value: string): { scheme: string; credential: string } | undefined {
  const scheme = AUTH_SCHEME.exec(value);
  return scheme ? { scheme: scheme[0], credential: value.slice(scheme[0].length) } : undefined;
}
