import type { ResolvedServer } from './resolve-server.js';
import type { ServerConfig } from './server-config.js';

/**
 * What of a server's settings its process or connection sees (issue 26.1): how it is
 * launched or reached (command, args, env, cwd; url, headers), the sandbox, what Blitz offers
 * it as a client (sampling, roots), its sign-in settings, whether it is shared, and its name.
 * The rest (approval, the tools allow-list, prefix, exposure, agents, timeouts) is the hub's
 * policy: changing it re-exposes the catalog and leaves the process running.
 */
export function launchSettings(config: ServerConfig) {
  return {
    name: config.name,
    transport: config.transport,
    sandbox: config.sandbox,
    sandboxWrite: config.sandboxWrite ?? null,
    sampling: config.sampling,
    roots: config.roots ?? null,
    share: config.share,
    oauth: config.oauth ?? null,
  };
}

/** Two resolved servers run the same process (or session) when this matches; a disabled or unavailable one runs none. */
export function launchFingerprint(resolved: ResolvedServer): string {
  return JSON.stringify({
    ...launchSettings(resolved.config),
    disabled: resolved.config.disabled,
    unavailable: resolved.unavailable ?? null,
  });
}
