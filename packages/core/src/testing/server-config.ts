/** Test support: a valid `ServerConfig` with defaults, for tests that only care about a few fields. */
import type { ResolvedServer } from '../config/resolve-server.js';
import type { ServerConfig } from '../config/server-config.js';

export function serverConfig(name: string, over: Partial<ServerConfig> = {}): ServerConfig {
  return {
    name,
    transport: { kind: 'stdio', command: name, args: [], env: {} },
    autoApprove: false,
    sandbox: true,
    agents: [],
    timeoutSeconds: 300,
    startupTimeoutSeconds: 30,
    disabled: false,
    sampling: false,
    share: false,
    source: { kind: 'global', file: '/settings.toml' },
    ...over,
  };
}

export function resolvedServer(name: string, over: Partial<ServerConfig> = {}, unavailable?: string): ResolvedServer {
  return { config: serverConfig(name, over), ...(unavailable === undefined ? {} : { unavailable }) };
}
