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
 * A project's keys in `~/.claude.json`'s `projects`: its folder as Claude Code writes it, with
 * `/` on every platform — a Windows folder `C:\work\app` is `C:/work/app` there. Claude Code
 * (2.1) keys a project by its working directory, `path.normalize`d with `\` made `/`, and keeps
 * the drive letter's case as the launch gave it: upper from cmd or PowerShell, lower from a
 * session VS Code started (its issues #67749, #76994, #86685). So a Windows folder has two
 * keys, the upper-case drive first; Blitz looks under both.
 */
export function claudeProjectKeys(dir: string): string[] {
  if (!/^(?:[A-Za-z]:[\\/]|\\\\)/.test(dir)) return [dir];
  const key = dir.replaceAll('\\', '/');
  if (!/^[A-Za-z]:/.test(key)) return [key];
  const rest = key.slice(1);
  return [key[0]!.toUpperCase() + rest, key[0]!.toLowerCase() + rest];
}

export const claudeCode: ClientSpec = {
  id: 'claude-code',
  title: 'Claude Code',
  clientInfoName: 'claude-code',
  format: 'json',
  serversKey: ['mcpServers'],
  // ~/.claude.json holds every project's history: 65 MB and more are reported (anthropics/claude-code#6394).
  maxFileBytes: 128 * 1024 * 1024,
  userFiles: (where) => [configFile(where)],
  installedMarker: (where) => join(where, where.env.CLAUDE_CONFIG_DIR || where.home, '.claude'),
  projectFiles: ['.mcp.json'],
  // `claude mcp add` without --scope keeps a server for the folder it ran in alone.
  localScope: {
    keys: (dir) => claudeProjectKeys(dir).map((key) => ['projects', key, 'mcpServers']),
    projects: (data) =>
      isTable(data.projects)
        ? Object.entries(data.projects).flatMap(([dir, p]) =>
            isTable(p) && isTable(p.mcpServers) && Object.keys(p.mcpServers).length > 0 ? [{ dir, names: Object.keys(p.mcpServers) }] : [],
          )
        : [],
  },
  // Claude Code expands ${VAR} and ${VAR:-default}, exactly as Blitz does.
  fromClient: (name, raw) =>
    mapJsonServer(name, raw, { urlKeys: ['url'], types: { stdio: 'stdio', http: 'http', sse: 'sse' }, refs: keepRefs }),
  toClient: (launch) => ({ type: 'stdio', command: launch.command, args: [...launch.args], ...withEnv(launch) }),
  rewritesWhileRunning: {
    command: {
      program: 'claude',
      add: (name, launch) => ['mcp', 'add-json', '--scope', 'user', name, JSON.stringify(claudeCode.toClient(launch))],
      remove: (name) => ['mcp', 'remove', '--scope', 'user', name],
    },
  },
};
