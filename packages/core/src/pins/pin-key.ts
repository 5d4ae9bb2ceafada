import { catalogCacheKey } from '../catalog-cache/catalog-cache-key.js';
import type { ServerConfig } from '../config/server-config.js';
import type { PinKey } from './pin-store.js';

/**
 * Whose pins a server's listing is checked against: a global server's are the same in every
 * workspace (the user trusted it once), a project server's are its project's. The launch hash
 * is the catalog cache's key of it (no secret value in it): an edit of how it runs is the
 * user trusting it afresh.
 */
export function pinKey(config: ServerConfig, workspace: string): PinKey {
  if (config.source.kind === 'global') return { id: `global:${config.name}`, server: config.name, launch: catalogCacheKey(config, '') };
  return { id: `project:${workspace}:${config.name}`, server: config.name, workspace, launch: catalogCacheKey(config, workspace) };
}
