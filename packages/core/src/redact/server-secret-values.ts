import type { ServerConfig } from '../config/server-config.js';
import { argSecrets } from './mask-server-secrets.js';
import { isSecretEnv } from './secret-names.js';
import { urlSecrets } from './url-secrets.js';

/**
 * The values of a server the redactor must know (MCP-42, issue 26.4): what is secret, not
 * every value — env values of secret-named variables or that look like credentials, every
 * header value, the secrets in its args and its URL (what `maskArgs` and `maskUrl` hide) and
 * its OAuth client secret. A path, a word or a port stays readable wherever it appears. Its
 * OAuth tokens are added as they are read (`ServerSignIns`).
 */
export function serverSecretValues(server: ServerConfig): string[] {
  const t = server.transport;
  const values =
    t.kind === 'stdio'
      ? [...Object.entries(t.env).flatMap(([name, value]) => (isSecretEnv(name, value) ? [value] : [])), ...argSecrets(t.args)]
      : [...Object.values(t.headers), ...urlSecrets(t.url)];
  return server.oauth?.clientSecret === undefined ? values : [...values, server.oauth.clientSecret];
}
