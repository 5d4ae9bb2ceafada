import path from 'node:path';
import type { WorkspaceServer, WorkspaceSummary } from '@blitz/client';
import type { CliContext } from '../../context.js';
import { connectToDaemon } from '../../daemon-connection.js';

export interface ProjectServers {
  readonly workspace: WorkspaceSummary;
  /** The servers of the project's own files (`.mcp.json`, …), not those of settings.toml. */
  readonly servers: readonly WorkspaceServer[];
}

/**
 * The project servers of the workspace the daemon hosts at `dir` or above it (the deepest), as a
 * client there sees them; undefined without a daemon, such a workspace, or servers of its own.
 * Nothing is opened or started: a project no client uses is not the daemon's yet.
 */
export async function projectServers(ctx: CliContext, dir: string): Promise<ProjectServers | undefined> {
  const daemon = connectToDaemon(ctx);
  if (!daemon) return undefined;
  try {
    const within = (root: string) => {
      const rel = path.relative(root, dir);
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    };
    const workspace = (await daemon.client.listWorkspaces()).filter((w) => within(w.root)).sort((a, b) => b.root.length - a.root.length)[0];
    if (workspace === undefined) return undefined;
    const servers = (await daemon.client.listWorkspaceServers(workspace.id)).filter((s) => s.source !== 'global');
    return servers.length === 0 ? undefined : { workspace, servers };
  } catch {
    return undefined;
  }
}
