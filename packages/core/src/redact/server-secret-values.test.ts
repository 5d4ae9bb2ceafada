import { describe, expect, it } from 'vitest';
import { serverConfig } from '../testing/server-config.js';
import { serverSecretValues } from './server-secret-values.js';

describe('serverSecretValues (issue 26.4)', () => {
  it('a stdio server: secret-named and credential-shaped env values, secret args; not paths, words or numbers', () => {
    const env = {
      CONFIG: '/etc/app.conf',
      MODE: 'production',
      TMPDIR: '/tmp',
      PORT: '8080',
      API_KEY: 'k-1',
      SETTING: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
    };
    const config = serverConfig('s', {
      transport: { kind: 'stdio', command: 'node', args: ['leak.mjs', '--token', 'tk1', '--port', '8080'], env },
    });
    expect(serverSecretValues(config)).toEqual(['k-1', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'tk1']);
  });

  it('an HTTP server: every header value, credential-like URL path segments, the OAuth client secret', () => {
    const config = serverConfig('h', {
      transport: { kind: 'http', url: 'https://h.example.com/mcp/sk-proj-4f9Qx2LmT7zR8vWk1pYd/sse', headers: { 'X-Team': 'core' } },
      oauth: { clientSecret: 'cs-1' },
    });
    expect(serverSecretValues(config)).toEqual(['core', 'sk-proj-4f9Qx2LmT7zR8vWk1pYd', 'cs-1']);
  });
});
