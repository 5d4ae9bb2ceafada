import type { ProjectConfig } from './project-config.js';
import { resolveServer, type ResolvedServer } from './resolve-server.js';
import type { ServerConfig } from './server-config.js';

export interface ProjectInput {
  config: ProjectConfig;
  trusted: boolean;
}

export interface EffectiveServers {
  servers: ResolvedServer[];
  /** The same servers as configured, references unexpanded: what to show a user. */
  configured: ServerConfig[];
  /** Set when the project has servers that are not used because it is not trusted. */
  untrusted?: { root: string; servers: string[] };
}

/**
 * The servers of one workspace: the global ones in settings order, each replaced entirely by
 * a trusted project's server of the same name; the project's other servers follow.
 */
export function effectiveServers(global: readonly ServerConfig[], project: ProjectInput | undefined, env: Readonly<Record<string, string | undefined>>): EffectiveServers {
  const projectServers = project?.trusted ? project.config.servers : [];
  const byName = new Map(projectServers.map((s) => [s.name, s]));
  const merged = global.map((s) => byName.get(s.name) ?? s);
  const globalNames = new Set(global.map((g) => g.name));
  for (const s of projectServers) if (!globalNames.has(s.name)) merged.push(s);
  const result: EffectiveServers = { servers: merged.map((s) => resolveServer(s, env)), configured: merged };
  if (project && !project.trusted && project.config.servers.length > 0) {
    result.untrusted = { root: project.config.root, servers: project.config.servers.map((s) => s.name) };
  }
  return result;
}
