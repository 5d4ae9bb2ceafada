import { DEFAULT_STARTUP_TIMEOUT_SECONDS, DEFAULT_TIMEOUT_SECONDS, type ServerConfig } from './server-config.js';
import type { ServerEntry, TomlValue } from './toml-edit/index.js';

/** A server as a `[[mcp.servers]]` table (and an API body): the file's field names, defaults left out. */
export function serverToEntry(config: ServerConfig): ServerEntry {
  const entry: Record<string, TomlValue> & { name: string } = { name: config.name };
  const t = config.transport;
  if (t.kind === 'stdio') {
    entry.command = t.command;
    if (t.args.length) entry.args = [...t.args];
    if (Object.keys(t.env).length) entry.env = { ...t.env };
    if (t.cwd !== undefined) entry.cwd = t.cwd;
  } else {
    entry.url = t.url;
    if (Object.keys(t.headers).length) entry.headers = { ...t.headers };
  }
  if (config.tools !== undefined) entry.tools = [...config.tools];
  if (config.prefix !== undefined) entry.prefix = config.prefix;
  if (config.exposure !== undefined) entry.exposure = config.exposure;
  if (config.toolExposure !== undefined) entry.tool_exposure = { ...config.toolExposure };
  if (config.agents.length) entry.agents = [...config.agents];
  if (config.autoApprove) entry.auto_approve = true;
  if (!config.sandbox) entry.sandbox = false;
  if (config.sampling) entry.sampling = true;
  if (config.roots !== undefined) entry.roots = config.roots === false ? false : [...config.roots];
  if (config.sandboxWrite !== undefined) entry.sandbox_write = [...config.sandboxWrite];
  if (config.share) entry.share = true;
  if (config.pin === false) entry.pin = false;
  if (config.timeoutSeconds !== DEFAULT_TIMEOUT_SECONDS) entry.timeout_seconds = config.timeoutSeconds;
  if (config.startupTimeoutSeconds !== DEFAULT_STARTUP_TIMEOUT_SECONDS) entry.startup_timeout_seconds = config.startupTimeoutSeconds;
  if (config.idleTimeoutSeconds !== undefined) entry.idle_timeout_seconds = config.idleTimeoutSeconds;
  if (config.disabled) entry.disabled = true;
  if (config.oauth) {
    const o = config.oauth;
    entry.oauth = {
      ...(o.clientId === undefined ? {} : { client_id: o.clientId }),
      ...(o.clientSecret === undefined ? {} : { client_secret: o.clientSecret }),
      ...(o.scopes === undefined ? {} : { scopes: [...o.scopes] }),
      ...(o.callbackPort === undefined ? {} : { callback_port: o.callbackPort }),
      ...(o.authorizationServer === undefined ? {} : { authorization_server: o.authorizationServer }),
      ...(o.clientMetadataUrl === undefined ? {} : { client_metadata_url: o.clientMetadataUrl }),
    };
  }
  return entry;
}
