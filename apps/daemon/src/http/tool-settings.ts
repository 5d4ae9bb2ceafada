import { BlitzError, decide, permissionKey, type Permissions, type ServerConfig, type SettingsEditor } from '@blitz/core';
import type { ExposedTool } from '@blitz/client';
import type { WorkspaceRegistry } from '../workspaces/workspace-registry.js';

const KINDS: Array<ExposedTool['approval']> = ['allow', 'ask', 'deny'];

/**
 * One tool switched on or off for clients, through the server's `tools` allow-list: off
 * from "every tool" writes the list of the others (as the server listed them in an open
 * workspace); on again, a list naming every tool is taken out (every tool, new ones too).
 */
export async function setToolOffered(
  editor: SettingsEditor,
  registry: WorkspaceRegistry,
  server: ServerConfig,
  tool: string,
  offered: boolean,
): Promise<void> {
  const listed = listedTools(registry, server.name);
  const current = server.tools ?? listed;
  if (server.tools === undefined && listed.length === 0) {
    throw new BlitzError(
      'FAILED_PRECONDITION',
      `the tools of ${server.name} are not known yet: they are once a client has listed them (or after Test)`,
      { reason: 'TOOLS_NOT_LISTED' },
    );
  }
  const next = offered ? [...current.filter((t) => t !== tool), tool] : current.filter((t) => t !== tool);
  const every = listed.length > 0 && listed.every((t) => next.includes(t)) && next.every((t) => listed.includes(t));
  await editor.setFields(server.name, {
    tools: every ? undefined : listed.filter((t) => next.includes(t)).concat(next.filter((t) => !listed.includes(t))),
  });
}

/**
 * A tool's approval (MCP-30/43) as one exact rule `mcp:<server>:<tool>` in `[permissions]`:
 * taken out of the other two lists; `ask` is written only when something else (auto_approve,
 * a pattern) would let it run without asking.
 */
export async function setToolApproval(
  editor: SettingsEditor,
  permissions: () => Permissions,
  server: ServerConfig,
  tool: string,
  approval: ExposedTool['approval'],
): Promise<void> {
  const key = permissionKey(server.name, tool);
  for (const kind of KINDS)
    if (kind !== approval && permissions()[kind].includes(key)) await editor.editPermissions(kind, { remove: [key] });
  if (approval === 'ask' && decide(permissions(), key, server.autoApprove).kind === 'ask') return;
  await editor.editPermissions(approval, { add: [key] });
}

/** The names of a global server's tools as it listed them in the open workspaces, allow-list or not. */
export function listedTools(registry: WorkspaceRegistry, name: string): string[] {
  const names = new Set<string>();
  for (const workspace of registry.list()) {
    const connection = workspace.manager.connections().find((c) => c.name === name);
    for (const t of connection?.currentTools() ?? []) names.add(t.name);
  }
  return [...names];
}
