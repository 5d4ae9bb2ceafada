import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../config/server-config.js';

/**
 * What Blitz offers one server as a client: sampling only where its settings allow it
 * (MCP-37); no roots for `roots = false`, so the server keeps the folders it was given.
 */
export function offeredCapabilities(base: ClientCapabilities | undefined, config: ServerConfig): ClientCapabilities {
  const { roots, ...rest } = base ?? {};
  return { ...rest, ...(config.sampling ? { sampling: {} } : {}), ...(roots && config.roots !== false ? { roots } : {}) };
}
