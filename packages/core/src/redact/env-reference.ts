import { ENV_REFERENCE } from '../config/expand-env.js';

// A reference names where a secret comes from, so it is shown; a default is a literal and
// may be the secret itself.

/** True when `text` is made only of references without defaults (and `:`/space between them). */
export function isReferenceOnly(text: string): boolean {
  let literal = false;
  const rest = text.replace(new RegExp(ENV_REFERENCE.source, 'g'), (_whole, _name: string, fallback: string | undefined) => {
    if (fallback) literal = true;
    return '';
  });
  return !literal && rest.length < text.length && /^[\s:]*$/.test(rest);
}
