import { createHash } from 'node:crypto';
import { launchSettings } from '../config/launch-settings.js';
import type { ServerConfig } from '../config/server-config.js';

/**
 * The key a server's cached catalog is filed under: a SHA-256 of everything that decides
 * what the server lists — its launch settings (launch-settings.ts: command, args, env names
 * and values, cwd; url, header names and values; the sandbox; sampling and roots; its sign-in
 * settings; its name) and the workspace it runs for. Any change is another key, so a changed
 * server is never answered from the cache. Only the hash is stored: no env value, header
 * value or secret reaches the file.
 */
export function catalogCacheKey(config: ServerConfig, workspace: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ v: 1, workspace, ...launchSettings(config) }))
    .digest('hex');
}
