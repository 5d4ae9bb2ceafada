import type { BlitzLaunch } from './client-spec.js';

/** `{ env }` when Blitz needs any variable, else nothing: most clients' entries read best without an empty env. */
export function withEnv(launch: BlitzLaunch): { env?: Record<string, string> } {
  return Object.keys(launch.env).length > 0 ? { env: { ...launch.env } } : {};
}
