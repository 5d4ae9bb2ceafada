/**
 * `${VAR}`, `${VAR:-default}` and `${env:VAR}`, the syntax config/expand-env.ts expands.
 * A reference names where a secret comes from, so it is shown; a default is a literal and
 * may be the secret itself.
 */
export const ENV_REFERENCE = /\$\{(?:env:)?[A-Za-z_][A-Za-z0-9_]*(?::-([^}]*))?\}/g;

/** True when `text` is made only of references without defaults (and `:`/space between them). */
export function isReferenceOnly(text: string): boolean {
  let literal = false;
  const rest = text.replace(new RegExp(ENV_REFERENCE.source, 'g'), (_whole, fallback: string | undefined) => {
    if (fallback) literal = true;
    return '';
  });
  return !literal && rest.length < text.length && /^[\s:]*$/.test(rest);
}
