import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { addWarning, type ServerWarnings } from './server-warnings.js';

/** What one server offers as resources. */
export interface ServerResources {
  server: string;
  resources: readonly Resource[];
}

/** One resource in the hub's catalog, under the server's own URI. */
export interface ResourceEntry {
  uri: string;
  server: string;
  resource: Resource;
}

export interface ResourceCatalog {
  entries: ResourceEntry[];
  warnings: ServerWarnings;
}

/**
 * The hub's resource list. Resources keep their URIs — a URI is an address the client may
 * already know, so unlike names it is never prefixed or rewritten — and the first server in
 * settings order wins a URI both offer, as with tools.
 */
export function buildResourceCatalog(servers: readonly ServerResources[]): ResourceCatalog {
  const entries: ResourceEntry[] = [];
  const warnings: ServerWarnings = new Map();
  const owners = new Map<string, string>();
  for (const { server, resources } of servers) {
    for (const resource of resources) {
      const { uri } = resource;
      const owner = owners.get(uri);
      if (owner === server) {
        addWarning(warnings, server, `resource "${uri}" is offered twice; the first is kept`);
      } else if (owner !== undefined) {
        addWarning(warnings, server, `resource "${uri}" is skipped: server "${owner}" already offers it`);
      } else {
        owners.set(uri, server);
        entries.push({ uri, server, resource });
      }
    }
  }
  return { entries, warnings };
}
