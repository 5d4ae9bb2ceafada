import { describe, expect, it } from 'vitest';
import { effectiveServers } from './effective-servers.js';
import type { ProjectConfig } from './project-config.js';
import type { ServerConfig } from './server-config.js';
import { serverConfig } from '../testing/server-config.js';

function server(name: string, command: string, kind: 'global' | 'project' = 'global'): ServerConfig {
  return serverConfig(name, {
    transport: { kind: 'stdio', command, args: [], env: {} },
    source: { kind, file: kind === 'global' ? '/settings.toml' : '/p/.mcp.json' },
  });
}

const project: ProjectConfig = {
  root: '/p',
  files: ['/p/.mcp.json'],
  servers: [server('b', 'project-b', 'project'), server('c', 'c', 'project')],
  problems: [],
  hash: 'h',
  serverLine: () => undefined,
};
const global = [server('a', 'a'), server('b', 'global-b')];

describe('effectiveServers', () => {
  it('a trusted project replaces a global server of the same name entirely, in its place', () => {
    const result = effectiveServers(global, { config: project, trusted: true }, {});
    expect(
      result.servers.map((s) => [s.config.name, s.config.source.kind, s.config.transport.kind === 'stdio' && s.config.transport.command]),
    ).toEqual([
      ['a', 'global', 'a'],
      ['b', 'project', 'project-b'],
      ['c', 'project', 'c'],
    ]);
    expect(result.untrusted).toBeUndefined();
  });

  it('an untrusted project contributes nothing and says so', () => {
    const result = effectiveServers(global, { config: project, trusted: false }, {});
    expect(result.servers.map((s) => s.config.name)).toEqual(['a', 'b']);
    expect(result.untrusted).toEqual({ root: '/p', servers: ['b', 'c'] });
  });
});
