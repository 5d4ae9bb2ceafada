import type { Problem } from './problem.js';
import type { ProjectConfig } from './project-config.js';
import type { ServerConfig } from './server-config.js';

/**
 * A notice for each trusted project server that takes the name of a global one: the user
 * sees which file replaced which server, since sign-ins are kept by name (its sign-in is
 * still sent only to the URL it was made for, never to the project's).
 */
export function shadowedProblems(
  global: readonly ServerConfig[],
  project: ProjectConfig,
  globalLine: (config: ServerConfig) => number | undefined,
): Problem[] {
  return project.servers.flatMap((server) => {
    const replaced = global.find((g) => g.name === server.name);
    if (!replaced) return [];
    const line = project.serverLine(server);
    const at = globalLine(replaced);
    return [
      {
        severity: 'warning',
        file: server.source.file,
        ...(line === undefined ? {} : { line }),
        server: server.name,
        message: `replaces the server of the same name in ${replaced.source.file}${at === undefined ? '' : `:${at}`} in this workspace; a sign-in to that server is sent only to its own URL`,
      },
    ];
  });
}
