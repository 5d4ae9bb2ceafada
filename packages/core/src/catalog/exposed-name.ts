import { createHash } from 'node:crypto';

/**
 * The longest name we expose. MCP itself allows more, but the model APIs behind most clients
 * accept only `^[A-Za-z0-9_-]{1,64}$` for a tool name, so that is the hub's contract.
 */
export const MAX_EXPOSED_NAME_BYTES = 64;

/** Hex digits of the hash that replaces the tail of an over-long name. */
const HASH_HEX_LENGTH = 8;

/** Everything outside the allowed set, one match per code point so an emoji becomes one `_`. */
const DISALLOWED = /[^A-Za-z0-9_-]/gu;

/** The name a client sees for a server's tool or prompt, and how it differs from the obvious one. */
export interface ExposedName {
  name: string;
  /** Some characters were outside `[A-Za-z0-9_-]` and became `_`. */
  sanitized: boolean;
  /** The name was over {@link MAX_EXPOSED_NAME_BYTES} and was cut, with a hash suffix. */
  shortened: boolean;
}

/**
 * `<prefix>__<original>` (or `original` alone), made safe for clients: disallowed characters
 * become `_`, and a name over 64 bytes keeps its first 55 characters plus `_` and 8 hex digits of
 * the SHA-256 of the full, unsanitized name. Hashing the unsanitized name keeps `a.b…` and
 * `a b…` apart even though they sanitize alike; the hash makes the result the same on every run,
 * so approvals keyed by the name survive restarts.
 */
export function exposedName(original: string, prefix?: string): ExposedName {
  // An empty `prefix = ""` in settings reads as "no prefix", not as a leading `__`.
  const full = prefix ? `${prefix}__${original}` : original;
  const safe = full.replace(DISALLOWED, '_');
  const sanitized = safe !== full;
  // Every character of `safe` is ASCII, so its length is its size in bytes.
  if (safe.length <= MAX_EXPOSED_NAME_BYTES) return { name: safe, sanitized, shortened: false };
  const hash = createHash('sha256').update(full, 'utf8').digest('hex').slice(0, HASH_HEX_LENGTH);
  const head = safe.slice(0, MAX_EXPOSED_NAME_BYTES - HASH_HEX_LENGTH - 1);
  return { name: `${head}_${hash}`, sanitized, shortened: true };
}
