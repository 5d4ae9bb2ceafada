import { createHash } from 'node:crypto';
import { canonicalJson } from '@blitz/core';

/** The arguments' SHA-256, of their canonical JSON (key order does not matter). */
export function argumentsHash(args: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(args ?? {}))
    .digest('hex');
}
