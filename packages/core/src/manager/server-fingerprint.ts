import type { ResolvedServer } from '../config/resolve-server.js';

/** Two resolved servers are configured alike when everything but where they were read from matches. */
export function serverFingerprint(resolved: ResolvedServer): string {
  const { source: _source, ...config } = resolved.config;
  return JSON.stringify({ config, unavailable: resolved.unavailable });
}
