import { isTable } from '@blitz/core';
import type { ClientSpec } from '../client-spec.js';
import { withEnv } from '../launch-fields.js';
import { keepRefs, mapJsonServer } from '../map-server.js';
import { join, type Where } from '../where.js';

/** `~/.claude.json`, or `$CLAUDE_CONFIG_DIR/.claude.json`: user-scope servers are its top-level `mcpServers`. */
function configFile(where: Where): string {
  const dir = where.env.CLAUDE_CONFIG_DIR;
  return join(where, dir !== undefined && dir !== '' ? dir : where.home, '.claude.json');
}

/**
 * A project's key in `~/.claude.json`'s `projects`: its folder as Claude Code writes it, with `/`
 * on every platform — a Windows folder `C:\work\app` is `C:/work/app` there.
 */
export function claudeProjectKey(dir: string): string {
  return /^(?:[A-Za-z]:[\\/]|\\\\)/.test(dir) ? dir.replaceAll('\\', '/') : dir;
}

export const claudeCode: ClientSpec = {
  id: 'claude-code',
  title: 'Claude Code',
  format: 'json',
  serversKey: ['mcpServers'],
  userFiles: (where) => [configFile(where)],
  installedMarker: (where) => join(where, where.env.CLAUDE_CONFIG_DIR || where.home, '.claude'),
  projectFiles: ['.mcp.json'],
  // `claude mcp add` without --scope keeps a server for the folder it ran in alone.
  localScope: {
    key: (dir) => ['projects', claudeProjectKey(dir), 'mcpServers'],
    projects: (data) =>
      isTable(data.projects)
        ? Object.entries(data.projects).flatMap(([dir, p]) => (isTable(p) && isTable(p.mcpServers) && Object.keys(p.mcpServers).length > 0 ? [{ dir, names: Object.keys(p.mcpServers) }] : []))
        : [],
  },
  // Claude Code expands ${VAR} and ${VAR:-default}, exactly as Blitz does.
  fromClient: (name, raw) => mapJsonServer(name, raw, { urlKeys: ['url'], types: { stdio: 'stdio', http: 'http', sse: 'sse' }, refs: keepRefs }),
  toClient: (launch) => ({ type: 'stdio', command: launch.command, args: [...launch.args], ...withEnv(launch) }),
  rewritesWhileRunning: {
    command: {
      program: 'claude',
      add: (name, launch) => ['mcp', 'add-json', '--scope', 'user', name, JSON.stringify(claudeCode.toClient(launch))],
      remove: (name) => ['mcp', 'remove', '--scope', 'user', name],
    },
  },
};
