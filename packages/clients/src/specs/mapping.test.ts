import { describe, expect, it } from 'vitest';
import { Redactor } from '@blitz/core';
import type { ClientId, ServerMapping } from '../client-spec.js';
import { clientById } from './index.js';

const map = (client: ClientId, raw: unknown, name = 's'): ServerMapping => clientById(client)!.fromClient(name, raw);
const skipped = (reason: RegExp) => ({ kind: 'skipped', reason: expect.stringMatching(reason) });

describe('bad servers are skipped with the field named', () => {
  it.each([
    ['claude-code', { command: 'npx', url: 'https://x.example.com/mcp' }, /has both command and url/],
    ['cursor', { type: 'stdio', url: 'https://x.example.com/mcp' }, /type is "stdio" but there is no command/],
    ['claude-code', { type: 'websocket', url: 'wss://x' }, /type: unknown transport type "websocket"/],
    ['vscode', { type: 'sse', url: 'https://x/sse' }, /not SSE/],
    ['claude-code', { command: 42 }, /command: must be a string/],
    ['claude-code', { command: 'npx', args: 'oops' }, /args: must be a list of strings/],
    ['claude-code', { command: 'npx', env: { A: { nested: true } } }, /env\.A: must be a string/],
    ['claude-code', { args: ['x'] }, /neither a command nor a URL/],
    ['claude-code', 'npx -y pkg', /must be an object/],
    ['windsurf', { serverUrl: 'https://a', url: 'https://b' }, /more than one URL \(serverUrl, url\)/],
    ['gemini', { url: 'https://old.example.com/sse' }, /SSE server in Gemini CLI/],
    ['codex', { command: 'x', url: 'https://x' }, /has both command and url/],
    ['codex', { url: 'https://x', bearer_token_env_var: 'not a name' }, /bearer_token_env_var: "not a name" is not a variable name/],
    ['opencode', { type: 'local', command: 'npx -y x' }, /command: must be a list of strings/],
    ['opencode', { type: 'stdio', command: ['x'] }, /unknown transport type "stdio"/],
    ['opencode', { type: 'local', command: ['x'], url: 'https://x' }, /has both command and url/],
    ['zed', { source: 'extension', settings: {} }, /Zed extension/],
  ] as const)('%s %j', (client, raw, reason) => {
    expect(map(client, raw)).toEqual(skipped(reason));
  });
});

describe('client fields map to Blitz fields', () => {
  it('a VS Code input prompt becomes a variable, with a warning naming it', () => {
    expect(
      map('vscode', { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${input:api-key}' } }),
    ).toEqual({
      kind: 'server',
      entry: { name: 's', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${API_KEY}' } },
      warnings: [
        expect.stringMatching(/^headers\.Authorization holds \$\{input:api-key\}, a VS Code input prompt.*imported as \$\{API_KEY\}/),
      ],
    });
  });

  it('an editor\'s workspace folder in an argument becomes ".", the folder Blitz runs the server in; its home becomes ${HOME}', () => {
    const m = map('vscode', { command: 'node', args: ['fs.js', '${workspaceFolder}', '${workspaceFolder}/src', '--home=${userHome}/x'] });
    // The home's variable is the platform's (editor-refs.test.ts): HOME, USERPROFILE on Windows.
    const home = process.platform === 'win32' ? '${USERPROFILE}' : '${HOME}';
    expect(m.kind === 'server' && m.entry.args).toEqual(['fs.js', '.', './src', `--home=${home}/x`]);
    expect(m.kind === 'server' && m.warnings).toEqual([
      'args[1] holds ${workspaceFolder}, a VS Code variable: imported as ".", the folder Blitz runs the server in (the workspace)',
      'args[2] holds ${workspaceFolder}, a VS Code variable: imported as ".", the folder Blitz runs the server in (the workspace)',
      `args[3] holds \${userHome}, a VS Code variable: imported as ${home}`,
    ]);
  });

  it('an editor variable Blitz has no value for is said to keep the server from starting, not "kept as text"', () => {
    const m = map('cursor', { command: '${workspaceFolder}/bin/tool', args: ['${workspaceFolderBasename}'] });
    expect(m.kind === 'server' && m.entry).toMatchObject({ command: '${workspaceFolder}/bin/tool', args: ['${workspaceFolderBasename}'] });
    expect(m.kind === 'server' && m.warnings).toEqual([
      'command holds ${workspaceFolder}, a Cursor variable Blitz has no value for here: it would read it as an unset environment variable, so the server cannot start until you replace it',
      'args[0] holds ${workspaceFolderBasename}, a Cursor variable Blitz has no value for here: it would read it as an unset environment variable, so the server cannot start until you replace it',
    ]);
  });

  // The CLI prints every warning through its redactor, which masks a `field: value` text whole when
  // the field looks secret (headers.Authorization, env.API_KEY): the warning must still say what it says.
  it.each([
    ['vscode', { type: 'http', url: 'https://x/mcp', headers: { Authorization: 'Bearer ${input:gh-token}' } }, '${input:gh-token}'],
    ['vscode', { command: 'node', env: { API_KEY: '${input:key}' } }, 'set KEY'],
    ['cursor', { command: 'node', env: { SECRET_TOKEN: '${workspaceFolder}/t' } }, '${workspaceFolder}'],
    ['opencode', { type: 'remote', url: 'https://x/mcp', headers: { Authorization: '{file:~/.token}' } }, '{file:~/.token}'],
    ['claude-code', { command: 'npx', apiToken: 'x', password: 'y' }, 'apiToken is not imported'],
  ] as const)('a %s warning on a secret-like field reads the same after the redactor', (client, raw, says) => {
    const m = map(client, raw);
    const warnings = m.kind === 'server' ? m.warnings : [];
    expect(warnings.join('\n')).toContain(says);
    const redactor = new Redactor();
    for (const w of warnings) expect(redactor.redact(w)).toBe(w);
  });

  it('unknown fields are named, never silently dropped', () => {
    const m = map('claude-code', { command: 'npx', alwaysAllow: ['x'], description: 'd' });
    expect(m.kind === 'server' && m.warnings).toEqual([
      'alwaysAllow is not imported (Blitz has no such setting)',
      'description is not imported (Blitz has no such setting)',
    ]);
  });

  it('a name Blitz cannot use is made usable, and said so', () => {
    const m = map('cursor', { command: 'npx' }, 'My Server!');
    expect(m.kind === 'server' && [m.entry.name, m.warnings[0]]).toEqual([
      'My-Server',
      expect.stringMatching(/"My Server!" is imported as "My-Server"/),
    ]);
  });

  it('Gemini: $VAR becomes ${VAR}, timeout ms becomes seconds, includeTools the allow-list', () => {
    expect(
      map('gemini', {
        httpUrl: 'https://x.example.com/mcp',
        headers: { Authorization: 'Bearer $TOKEN' },
        timeout: 1500,
        includeTools: ['a'],
      }),
    ).toMatchObject({
      entry: { url: 'https://x.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' }, timeout_seconds: 2, tools: ['a'] },
    });
  });

  it('opencode: one command array and {env:VAR}', () => {
    expect(map('opencode', { type: 'local', command: ['bun', 'x', 'pkg'], environment: { K: '{env:K}' }, enabled: false })).toMatchObject({
      entry: { command: 'bun', args: ['x', 'pkg'], env: { K: '${K}' }, disabled: true },
    });
  });

  it('Zed: the older nested command', () => {
    expect(map('zed', { command: { path: 'node', args: ['s.js'], env: { A: '1' } }, settings: {} })).toEqual({
      kind: 'server',
      entry: { name: 's', command: 'node', args: ['s.js'], env: { A: '1' } },
      warnings: [],
    });
  });
});
