import { createHash } from 'node:crypto';
import type { ServerConfig } from '../config/server-config.js';

/**
 * The key a server's cached catalog is filed under: a SHA-256 of everything that decides
 * what the server lists — how it is launched (command, args, env names and values, cwd; url,
 * header names and values), the sandbox, what Blitz offers it as a client (sampling, roots),
 * its sign-in settings, its name and the workspace it runs for. Any change is another key, so
 * a changed server is never answered from the cache. Only the hash is stored: no env value,
 * header value or secret reaches the file.
 */
export function catalogCacheKey(config: ServerConfig, workspace: string): string {
  const launch = {
    v: 1,
    workspace,
    name: config.name,
    transport: config.transport,
    sandbox: config.sandbox,
    sandboxWrite: config.sandboxWrite ?? null,
    sampling: config.sampling,
    roots: config.roots ?? null,
    share: config.share,
    oauth: config.oauth ?? null,
  };
  return createHash('sha256').update(JSON.stringify(launch)).digest('hex');
}
