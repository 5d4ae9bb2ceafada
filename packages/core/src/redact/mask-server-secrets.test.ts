import { describe, expect, it } from 'vitest';
import { argSecrets, maskArgs, maskConfigValue, maskServerSecrets } from './mask-server-secrets.js';

describe('maskConfigValue', () => {
  it.each<[string, unknown, unknown]>([
    ['a literal', 'abc123', '***'],
    ['a short literal, no partial reveal', 'a', '***'],
    ['empty', '', ''],
    ['a reference', '${TOKEN}', '${TOKEN}'],
    ['an env: reference', '${env:TOKEN}', '${env:TOKEN}'],
    ['Bearer with a reference', 'Bearer ${TOKEN}', 'Bearer ${TOKEN}'],
    ['Bearer with a literal token', 'Bearer abc123', 'Bearer ***'],
    ['Basic with a reference', 'Basic ${CREDS}', 'Basic ${CREDS}'],
    ['a reference then a literal', '${A}-literal', '${A}***'],
    ['a literal then a reference', 'literal${A}', '***${A}'],
    ['two references', '${A}${B}', '${A}${B}'],
    ['a default is a literal', '${A:-fallback}', '${A:-***}'],
    ['an empty default', '${A:-}', '${A:-}'],
    ['a scheme alone is a literal', 'Bearer', '***'],
    ['a number', 42, '***'],
  ])('%s', (_name, value, expected) => {
    expect(maskConfigValue(value)).toBe(expected);
  });
});

describe('maskServerSecrets', () => {
  it('masks env and header values, client_secret and url secrets, and keeps the rest', () => {
    const entry = {
      name: 'github',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_TOKEN: 'ghp_abc', API_URL: '${API_URL}', EMPTY: '' },
      auto_approve: false,
    };
    expect(maskServerSecrets(entry)).toEqual({ ...entry, env: { GITHUB_TOKEN: '***', API_URL: '${API_URL}', EMPTY: '' } });
    expect(entry.env.GITHUB_TOKEN).toBe('ghp_abc');
  });

  it('masks an HTTP entry', () => {
    const entry = {
      name: 'remote',
      url: 'https://user:pw@mcp.example.com/mcp?api_key=k&team=${TEAM}',
      headers: { Authorization: 'Bearer abc123', 'X-Trace': '${TRACE}', 'X-Key': 'Bearer ${KEY}' },
      oauth: { client_id: 'blitz', client_secret: 'cs_123', scopes: ['repo'] },
    };
    expect(maskServerSecrets(entry)).toEqual({
      name: 'remote',
      url: 'https://***@mcp.example.com/mcp?api_key=***&team=${TEAM}',
      headers: { Authorization: 'Bearer ***', 'X-Trace': '${TRACE}', 'X-Key': 'Bearer ${KEY}' },
      oauth: { client_id: 'blitz', client_secret: '***', scopes: ['repo'] },
    });
  });

  it('keeps a client_secret reference visible and leaves entries without secrets alone', () => {
    expect(maskServerSecrets({ oauth: { client_secret: '${GH_SECRET}' } })).toEqual({ oauth: { client_secret: '${GH_SECRET}' } });
    expect(maskServerSecrets({ name: 'x', command: 'y' })).toEqual({ name: 'x', command: 'y' });
  });
});

describe('maskServerSecrets: what is secret, not every value (issue 26.4)', () => {
  it.each<[string, Record<string, string>, Record<string, string>]>([
    [
      'paths, words and numbers stay',
      { CONFIG: '/etc/app.conf', MODE: 'production', TMPDIR: '/tmp', PORT: '8080' },
      { CONFIG: '/etc/app.conf', MODE: 'production', TMPDIR: '/tmp', PORT: '8080' },
    ],
    [
      'secret-named variables are masked',
      { API_KEY: 'abc', DB_PASSWORD: 'hunter2', GITLAB_PAT: 'x', BASIC_AUTH: 'u:p' },
      { API_KEY: '***', DB_PASSWORD: '***', GITLAB_PAT: '***', BASIC_AUTH: '***' },
    ],
    [
      'a credential-shaped value is masked whatever its name',
      { SETTING: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a', OTHER: 'q8Zt3Lw+P0mX7vB2kR9sY4nE1cH6' },
      { SETTING: '***', OTHER: '***' },
    ],
    [
      'references stay',
      { GITHUB_TOKEN: '${GITHUB_TOKEN}', HOME_DIR: '${HOME}/x' },
      { GITHUB_TOKEN: '${GITHUB_TOKEN}', HOME_DIR: '${HOME}/x' },
    ],
  ])('%s', (_name, env, expected) => {
    expect(maskServerSecrets({ name: 's', command: 'node', env }).env).toEqual(expected);
  });

  it('a token in a URL path is masked (issue 25.12): by its prefix, or by its shape', () => {
    expect(maskServerSecrets({ url: 'https://mcp.example.com/mcp/sk-proj-4f9Qx2LmT7zR8vWk1pYd/sse' }).url).toBe(
      'https://mcp.example.com/mcp/***/sse',
    );
    expect(maskServerSecrets({ url: 'https://h.example.com/v1/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b/mcp?team=core' }).url).toBe(
      'https://h.example.com/v1/***/mcp?team=core',
    );
    expect(maskServerSecrets({ url: 'https://h.example.com/api/v2/mcp' }).url).toBe('https://h.example.com/api/v2/mcp');
    expect(maskArgs(['https://h.example.com/mcp/sk-proj-4f9Qx2LmT7zR8vWk1pYd/sse'])).toEqual(['https://h.example.com/mcp/***/sse']);
  });
});

describe('maskArgs', () => {
  it.each<[string, string[], string[]]>([
    ['a Bearer token inside a header argument', ['-H', 'Authorization: Bearer abc123'], ['-H', 'Authorization: Bearer ***']],
    ['a Bearer token on its own', ['--header', 'Bearer abc123'], ['--header', 'Bearer ***']],
    ['a secret-named option with =', ['--api-key=k-123', '--token=${TOKEN}'], ['--api-key=***', '--token=${TOKEN}']],
    [
      'the argument after a secret-named option',
      ['--token', 'abc123', '--access-token', '${T}'],
      ['--token', '***', '--access-token', '${T}'],
    ],
    ['URL userinfo and query secrets', ['https://u:pw@h/x?api_key=k&page=2'], ['https://***@h/x?api_key=***&page=2']],
    [
      'plain arguments stay',
      ['-y', '@scope/server', '--port', '8080', '--token-file', '/tmp/t'],
      ['-y', '@scope/server', '--port', '8080', '--token-file', '/tmp/t'],
    ],
  ])('%s', (_name, args, expected) => {
    expect(maskArgs(args)).toEqual(expected);
  });

  it('argSecrets names the literals it hides, for the redactor', () => {
    expect(argSecrets(['-H', 'Authorization: Bearer abc123', '--token', 'tk1', '--api-key=k-9', '--token=${T}', '-y', 'pkg'])).toEqual([
      'abc123',
      'tk1',
      'k-9',
    ]);
  });

  it('is what maskServerSecrets does to args', () => {
    expect(
      maskServerSecrets({ name: 'x', command: 'mcp-remote', args: ['https://h/mcp', '--header', 'Authorization: Bearer sk-live'] }).args,
    ).toEqual(['https://h/mcp', '--header', 'Authorization: Bearer ***']);
  });
});
