import { ENV_REFERENCE } from '../config/expand-env.js';
import { MASK, splitCredential } from './mask.js';
import { applyTextRules } from './text-rules.js';

/**
 * A `[[mcp.servers]]` entry (TOML field names) for display, as `blitz config show`, `blitz
 * mcp get` and the control API return it (MCP-42): env and header values and
 * `oauth.client_secret` masked, secrets in `url` masked; everything else as it was.
 */
export function maskServerSecrets<T extends Readonly<Record<string, unknown>>>(entry: T): T {
  const copy: Record<string, unknown> = { ...entry };
  if (isTable(entry.env)) copy.env = mapValues(entry.env, maskConfigValue);
  if (isTable(entry.headers)) copy.headers = mapValues(entry.headers, maskConfigValue);
  if (typeof entry.url === 'string') copy.url = applyTextRules(entry.url);
  if (isTable(entry.oauth) && 'client_secret' in entry.oauth) {
    copy.oauth = { ...entry.oauth, client_secret: maskConfigValue(entry.oauth.client_secret) };
  }
  return copy as T;
}

/**
 * Masks one configured value, keeping what is not secret: `${VAR}` references (they name
 * where the secret lives) and a leading authorization scheme. Every literal run becomes
 * `***`, so `Bearer ${TOKEN}` stays as is, `Bearer abc123` shows `Bearer ***`,
 * `${A}-literal` shows `${A}***` (the literal part may be the secret), and a default
 * shows as `${VAR:-***}`. Anything but a string is masked whole.
 */
export function maskConfigValue(value: unknown): unknown {
  if (typeof value !== 'string') return value === undefined || value === null ? value : MASK;
  const split = splitCredential(value);
  const scheme = split?.scheme ?? '';
  const rest = split ? split.credential : value;
  let out = scheme;
  let last = 0;
  for (const match of rest.matchAll(new RegExp(ENV_REFERENCE.source, 'g'))) {
    if (match.index > last) out += MASK;
    const fallback = match[2];
    out += fallback ? match[0].slice(0, -(fallback.length + 1)) + `${MASK}}` : match[0];
    last = match.index + match[0].length;
  }
  if (rest.length > last) out += MASK;
  return out;
}

function isTable(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues(table: Readonly<Record<string, unknown>>, fn: (value: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(table).map(([key, value]) => [key, fn(value)]));
}
