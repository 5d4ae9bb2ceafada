import { expandEnv } from './expand-env.js';
import { expandHome } from './home-path.js';
import type { ServerConfig, ServerTransport } from './server-config.js';
import { urlProblem } from './url-rules.js';

/** A server with its environment references expanded, or the reason it cannot start. */
export interface ResolvedServer {
  config: ServerConfig;
  /** Why the server cannot start, e.g. a missing variable (named, never its value). */
  unavailable?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Expands `${VAR}` references in command, args, env values, cwd, url, header values and the
 * OAuth client secret, and `~` in `roots` and `sandbox_write`. A disabled server is not expanded: its missing variables block nothing.
 */
export function resolveServer(config: ServerConfig, env: Env): ResolvedServer {
  if (config.disabled) return { config };
  const missing = new Set<string>();
  const expand = (text: string) => {
    const result = expandEnv(text, env);
    for (const name of result.missing) missing.add(name);
    return result.value;
  };
  const expandMap = (map: Record<string, string>) => Object.fromEntries(Object.entries(map).map(([k, v]) => [k, expand(v)]));

  const t = config.transport;
  const transport: ServerTransport =
    t.kind === 'stdio'
      ? {
          kind: 'stdio',
          command: expand(t.command),
          args: t.args.map(expand),
          env: expandMap(t.env),
          ...(t.cwd === undefined ? {} : { cwd: expand(t.cwd) }),
        }
      : { kind: 'http', url: expand(t.url), headers: expandMap(t.headers) };
  const resolved: ServerConfig = { ...config, transport };
  if (config.roots) resolved.roots = config.roots.map((p) => expandHome(p));
  if (config.sandboxWrite) resolved.sandboxWrite = config.sandboxWrite.map((p) => expandHome(p));
  if (config.oauth) {
    resolved.oauth = { ...config.oauth };
    if (config.oauth.clientSecret !== undefined) resolved.oauth.clientSecret = expand(config.oauth.clientSecret);
    if (config.oauth.authorizationServer !== undefined) resolved.oauth.authorizationServer = expand(config.oauth.authorizationServer);
  }

  if (missing.size > 0) {
    const names = [...missing].sort();
    const list = names.map((n) => `\${${n}}`).join(', ');
    return {
      config: resolved,
      unavailable: `environment variable${names.length > 1 ? 's' : ''} ${list} ${names.length > 1 ? 'are' : 'is'} not set`,
    };
  }
  if (transport.kind === 'http' && t.kind === 'http' && transport.url !== t.url) {
    const problem = urlProblem(transport.url);
    if (problem) return { config: resolved, unavailable: `url (after expanding variables) ${problem}` };
  }
  return { config: resolved };
}
