import { ENV_REFERENCE } from '../config/expand-env.js';
import { MASK, splitCredential } from './mask.js';
import { isReferenceOnly } from './env-reference.js';
import { isSecretEnv, isSecretField } from './secret-names.js';
import { looksLikeCredential } from './credential-shape.js';
import { maskUrl, urlSecrets } from './url-secrets.js';

/**
 * A `[[mcp.servers]]` entry (TOML field names) for display, as `blitz config show`, `blitz
 * mcp get` and the control API return it (MCP-42): header values, `oauth.client_secret` and
 * the env values that are secret (a secret-named variable, a credential-shaped value: issue
 * 26.4) masked, secrets in `url` and `args` masked; everything else, paths, words and
 * numbers included, as it was.
 */
export function maskServerSecrets<T extends Readonly<Record<string, unknown>>>(entry: T): T {
  const copy: Record<string, unknown> = { ...entry };
  if (isTable(entry.env))
    copy.env = Object.fromEntries(
      Object.entries(entry.env).map(([name, value]) => [name, isSecretEnv(name, value) ? maskConfigValue(value) : value]),
    );
  if (isTable(entry.headers)) copy.headers = mapValues(entry.headers, maskConfigValue);
  if (typeof entry.url === 'string') copy.url = maskUrl(entry.url);
  if (Array.isArray(entry.args)) copy.args = maskArgs(entry.args);
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

/**
 * A command line's arguments for display: secrets by shape in each (`Bearer …`,
 * `Authorization: …`, URL userinfo, `?token=`), the value of a secret-named option
 * (`--api-key=…`, or the argument after `--token`), references kept.
 */
export function maskArgs(args: readonly unknown[]): unknown[] {
  return args.map((arg, i) => {
    if (typeof arg !== 'string') return arg;
    const previous = args[i - 1];
    if (typeof previous === 'string' && isSecretOption(previous) && !previous.includes('=')) return maskConfigValue(arg);
    const option = OPTION_WITH_VALUE.exec(arg);
    if (option && isSecretField(option[2]!)) return `${option[1]}${maskConfigValue(option[3])}`;
    if (looksLikeCredential(arg)) return MASK;
    return maskUrl(arg);
  });
}

/**
 * The literal secrets `maskArgs` hides, for the redactor to know as values: the credential
 * after an authorization scheme, and the value of a secret-named option.
 */
export function argSecrets(args: readonly string[]): string[] {
  const found: string[] = [];
  args.forEach((arg, i) => {
    const previous = args[i - 1];
    if (previous !== undefined && isSecretOption(previous) && !previous.includes('=')) found.push(arg);
    const option = OPTION_WITH_VALUE.exec(arg);
    if (option && isSecretField(option[2]!)) found.push(option[3]!);
    if (looksLikeCredential(arg)) found.push(arg);
    found.push(...urlSecrets(arg));
    for (const m of arg.matchAll(SCHEME_CREDENTIAL)) found.push(m[1]!);
  });
  return found.filter((value) => value !== '' && !isReferenceOnly(value));
}

const SCHEME_CREDENTIAL = /\b(?:Bearer|Basic|Digest|Token|Bot)\s+([A-Za-z0-9\-._~+/]+=*)/gi;

/** `--name=value` or `-name=value`. */
const OPTION_WITH_VALUE = /^(--?([A-Za-z][\w.-]*)=)(.*)$/s;

function isSecretOption(arg: string): boolean {
  const name = /^--?([A-Za-z][\w.-]*)$/.exec(arg)?.[1];
  return name !== undefined && isSecretField(name);
}

function isTable(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues(table: Readonly<Record<string, unknown>>, fn: (value: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(table).map(([key, value]) => [key, fn(value)]));
}
