import type { ProjectConfig } from './project-config.js';
import { withGrants, type ProjectGrant } from './project-grants.js';
import { resolveServer, type ResolvedServer } from './resolve-server.js';
import type { ServerConfig } from './server-config.js';

export interface ProjectInput {
  config: ProjectConfig;
  trusted: boolean;
  /** What the user's trust grants the project's servers beyond the safe defaults (`blitz trust --allow`). */
  allowed?: ReadonlySet<ProjectGrant>;
}

export interface EffectiveServers {
  servers: ResolvedServer[];
  /** The same servers as configured, references unexpanded: what to show a user. */
  configured: ServerConfig[];
  /** Set when the project has servers that are not used because it is not trusted. */
  untrusted?: { root: string; servers: string[] };
  /** A trusted project's servers that run without some of what their file asks for, not granted. */
  withheld: Array<{ server: ServerConfig; grants: ProjectGrant[] }>;
}

/**
 * The servers of one workspace: the global ones in settings order, each replaced entirely by
 * a trusted project's server of the same name; the project's other servers follow, with only
 * the powers their trust grants (project-grants.ts).
 */
export function effectiveServers(
  global: readonly ServerConfig[],
  project: ProjectInput | undefined,
  env: Readonly<Record<string, string | undefined>>,
): EffectiveServers {
  const withheld: EffectiveServers['withheld'] = [];
  const projectServers = (project?.trusted ? project.config.servers : []).map((s) => {
    const granted = withGrants(s, project!.config.root, project!.allowed ?? new Set());
    if (granted.withheld.length > 0) withheld.push({ server: s, grants: granted.withheld });
    return granted.config;
  });
  const byName = new Map(projectServers.map((s) => [s.name, s]));
  const merged = global.map((s) => byName.get(s.name) ?? s);
  const globalNames = new Set(global.map((g) => g.name));
  for (const s of projectServers) if (!globalNames.has(s.name)) merged.push(s);
  const result: EffectiveServers = { servers: merged.map((s) => resolveServer(s, env)), configured: merged, withheld };
  if (project && !project.trusted && project.config.servers.length > 0) {
    result.untrusted = { root: project.config.root, servers: project.config.servers.map((s) => s.name) };
  }
  return result;
}
