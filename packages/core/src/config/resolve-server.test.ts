import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveServer } from './resolve-server.js';
import type { ServerConfig } from './server-config.js';
import { serverConfig } from '../testing/server-config.js';

function server(over: Partial<ServerConfig>): ServerConfig {
  return serverConfig('s', {
    transport: { kind: 'stdio', command: 'x', args: [], env: {} },
    source: { kind: 'global', file: '/s.toml' },
    ...over,
  });
}

describe('resolveServer', () => {
  it('expands command, args, env values and cwd', () => {
    const resolved = resolveServer(
      server({
        transport: { kind: 'stdio', command: '${BIN}/srv', args: ['--root', '${ROOT:-/tmp}'], env: { KEY: '${KEY}' }, cwd: '${HOME}' },
      }),
      { BIN: '/opt', KEY: 'k', HOME: '/home/u' },
    );
    expect(resolved).toEqual({
      config: expect.objectContaining({
        transport: { kind: 'stdio', command: '/opt/srv', args: ['--root', '/tmp'], env: { KEY: 'k' }, cwd: '/home/u' },
      }),
    });
  });

  it('expands ~ in roots and sandbox_write to the home folder', () => {
    const home = os.homedir();
    const resolved = resolveServer(server({ roots: ['~/src', '/data', '~'], sandboxWrite: ['~/.local/share/memory'] }), {});
    expect(resolved.config.roots).toEqual([path.join(home, 'src'), '/data', home]);
    expect(resolved.config.sandboxWrite).toEqual([path.join(home, '.local/share/memory')]);
    expect(resolveServer(server({ roots: false }), {}).config.roots).toBe(false);
  });

  it('expands url, header values and the oauth client secret', () => {
    const resolved = resolveServer(
      server({
        transport: { kind: 'http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        oauth: { clientSecret: '${SECRET}' },
      }),
      { HOST: 'h.example', TOKEN: 't', SECRET: 'sec' },
    );
    expect(resolved.unavailable).toBeUndefined();
    expect(resolved.config.transport).toEqual({ kind: 'http', url: 'https://h.example/mcp', headers: { Authorization: 'Bearer t' } });
    expect(resolved.config.oauth).toEqual({ clientSecret: 'sec' });
  });

  it('a missing variable makes the server unavailable, naming the variable and never a value', () => {
    const resolved = resolveServer(
      server({ transport: { kind: 'stdio', command: 'x', args: ['${A}'], env: { K: '${PRESENT}', L: '${GONE}' } } }),
      { PRESENT: 'super-secret-value' },
    );
    expect(resolved.unavailable).toBe('environment variables ${A}, ${GONE} are not set');
    expect(JSON.stringify(resolved.unavailable)).not.toContain('super-secret-value');
  });

  it('a disabled server is not expanded, so its missing variables block nothing', () => {
    const config = server({ disabled: true, transport: { kind: 'stdio', command: '${NOPE}', args: [], env: {} } });
    expect(resolveServer(config, {})).toEqual({ config });
  });

  it('checks a url again once expanded', () => {
    const resolved = resolveServer(server({ transport: { kind: 'http', url: '${URL}', headers: {} } }), { URL: 'http://example.com/mcp' });
    expect(resolved.unavailable).toMatch(/^url \(after expanding variables\) uses plain http to example.com/);
  });
});
