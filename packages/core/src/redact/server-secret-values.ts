import type { ServerConfig } from '../config/server-config.js';
import { argSecrets } from './mask-server-secrets.js';

/**
 * The values of a server the redactor must know (MCP-42): its env and header values, the
 * secrets in its args (what `maskArgs` hides) and its OAuth client secret. Its OAuth tokens are added as they are read (`ServerSignIns`).
 */
export function serverSecretValues(server: ServerConfig): string[] {
  const t = server.transport;
  const values = t.kind === 'stdio' ? [...Object.values(t.env), ...argSecrets(t.args)] : Object.values(t.headers);
  return server.oauth?.clientSecret === undefined ? values : [...values, server.oauth.clientSecret];
}
