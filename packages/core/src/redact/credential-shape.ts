/**
 * Values that look like credentials whatever their name (issue 26.4): tokens with a known
 * prefix (`sk-`, `ghp_`, `github_pat_`, `xoxb-`, `glpat-`, `AKIA…`, …), JWTs, and long
 * high-entropy runs. Paths, words and numbers do not: `/etc/app.conf`, `production`, `8080`.
 */

/** Known token prefixes, each followed by at least 8 token characters (`sk-learn` is a word). */
const PREFIXED =
  '(?:sk-(?:ant-|proj-|live-|test-)?|sk_(?:live|test)_|rk_(?:live|test)_|gh[pousr]_|github_pat_|xox[abpsore]-|xapp-|glpat-|gl(?:dt|ptt|rt|soat|cbt)-|AKIA|ASIA|AIza|npm_|hf_|pypi-|dop_v1_|shp(?:at|ss|ca)_|sq0atp-|ya29\\.)[A-Za-z0-9_\\-.=]{8,}';
const JWT = 'eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*';

/** The same shapes inside any text: a URL path (`/mcp/sk-…/sse`), a message, a log line. */
export const CREDENTIAL_IN_TEXT = new RegExp(`(?<![A-Za-z0-9_\\-])(?:${PREFIXED}|${JWT})`, 'g');
const WHOLE_PREFIXED = new RegExp(`^(?:${PREFIXED}|${JWT})$`);

/** A run of token characters long enough to be a generated secret. */
const RANDOM_RUN = /[A-Za-z0-9+/=_-]{20,}/g;
const MIN_BITS_PER_CHAR = 3.5;

/** Whether one configured value (an env value, an argument, a URL path segment) looks like a credential. */
export function looksLikeCredential(value: string): boolean {
  const v = value.trim();
  if (v === '' || /\s/.test(v)) return false;
  if (WHOLE_PREFIXED.test(v)) return true;
  // A path or an address is no credential by shape; a secret in a URL is found by its parts.
  if (/^[/~.]|^[A-Za-z]:[\\/]|:\/\//.test(v)) return false;
  return [...v.matchAll(RANDOM_RUN)].some((m) => looksRandom(m[0]));
}

/** Mixed letters and digits, few repeats: `a1B2…` yes; `production_eu_west`, `1234567890123456789012` no. */
function looksRandom(run: string): boolean {
  const core = run.replace(/[=]+$/, '');
  if (!/[A-Za-z]/.test(core) || !/[0-9]/.test(core)) return false;
  // Words joined by `-` or `_` (`my-service-v2-production`) are names, not secrets.
  if (core.split(/[-_]/).every((part) => part.length < 16)) return false;
  return bitsPerChar(core) >= MIN_BITS_PER_CHAR;
}

function bitsPerChar(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
