import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBlitz, tempDir } from '../support/blitz-cli.js';

const SECRETS = ['ghp_plantedSecretToken123', 'env-secret-value-456', 'header-literal-789'];

let home: string;
let project: string;
beforeEach(() => {
  home = tempDir('blitz-cli-');
  project = tempDir('blitz-project-');
  fs.writeFileSync(
    path.join(home, 'settings.toml'),
    `[[mcp.servers]]
name = "github"
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
env = { GITHUB_TOKEN = "${SECRETS[1]}", FROM_ENV = "\${GITHUB_TOKEN}" }

[[mcp.servers]]
name = "remote"
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer ${SECRETS[0]}", "X-Team" = "${SECRETS[2]}", "X-Ref" = "Bearer \${TOKEN}" }
disabled = true
`,
  );
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(project, { recursive: true, force: true });
});

function expectNoSecrets(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe('blitz mcp list and get', () => {
  it('list shows name, transport, command line or URL, and enabled or disabled', async () => {
    const result = await runBlitz(['mcp', 'list'], { home });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'NAME    TRANSPORT  COMMAND OR URL                              STATUS',
        'github  stdio      npx -y @modelcontextprotocol/server-github  enabled',
        'remote  http       https://mcp.example.com/mcp                 disabled',
        '(the daemon is not running: showing settings only)',
        '',
      ].join('\n'),
    );
  });

  it('list with no servers says how to add one', async () => {
    fs.writeFileSync(path.join(home, 'settings.toml'), '# nothing yet\n');
    expect((await runBlitz(['mcp', 'list'], { home })).stdout).toMatch(/No MCP servers configured in .*\nAdd one: blitz mcp add/);
  });

  it('get masks env values, header values and Bearer tokens, and keeps ${VAR} references', async () => {
    const text = await runBlitz(['mcp', 'get', 'remote'], { home });
    expect(text.code).toBe(0);
    expectNoSecrets(text.stdout);
    expect(text.stdout).toContain('Authorization=Bearer ***');
    expect(text.stdout).toContain('X-Ref=Bearer ${TOKEN}');
    const json = JSON.parse((await runBlitz(['mcp', 'get', 'github', '--json'], { home })).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      name: 'github',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_TOKEN: '***', FROM_ENV: '${GITHUB_TOKEN}' },
      transport: 'stdio',
      enabled: true,
      sandbox: true,
      timeout_seconds: 300,
    });
    expectNoSecrets(JSON.stringify(json));
  });

  it('get of an unknown name fails with exit code 1', async () => {
    const result = await runBlitz(['mcp', 'get', 'nope'], { home });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/^blitz: no MCP server named "nope" in .*settings\.toml\n$/);
  });
});

describe('blitz config show and blitz trust', () => {
  beforeEach(() => {
    fs.writeFileSync(
      path.join(project, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          github: { command: 'node', args: ['project-github.js'], env: { TOKEN: SECRETS[1] } },
          local: { type: 'http', url: 'http://127.0.0.1:9999/mcp' },
          legacy: { type: 'sse', url: 'https://old.example.com/sse' },
        },
      }),
    );
  });

  it('shows each server with where it comes from, secrets masked', async () => {
    const result = await runBlitz(['config', 'show'], { home });
    expect(result.code).toBe(0);
    expectNoSecrets(result.stdout);
    expect(result.stdout).toContain(
      '[[mcp.servers]]  # from global settings — cannot start: environment variable ${GITHUB_TOKEN} is not set\nname = "github"',
    );
    expect(result.stdout).toContain('[[mcp.servers]]  # from global settings\nname = "remote"');
    expect(result.stdout).toContain('env = { GITHUB_TOKEN = "***", FROM_ENV = "${GITHUB_TOKEN}" }');
    expect(result.stdout).toContain('[daemon]\nport = 47823\nworkspace_idle_minutes = 10');
  });

  it("an untrusted project's servers are listed as not used; trusting uses them; a change needs trust again", async () => {
    const untrusted = JSON.parse((await runBlitz(['config', 'show', '--workspace', project, '--json'], { home })).stdout);
    expect(untrusted.workspace).toMatchObject({ root: project, trusted: false });
    expect(untrusted.servers.map((s: { entry: { name: string } }) => s.entry.name)).toEqual(['github', 'remote']);
    expect(untrusted.workspace.problems).toEqual([expect.stringContaining('server "legacy", field "type": skipped: Blitz speaks stdio and streamable HTTP, not SSE')]);

    const trust = await runBlitz(['trust', project], { home });
    expect(trust.stdout).toBe(`Trusted ${project}: 2 MCP servers (github, local).\n`);
    const trusted = JSON.parse((await runBlitz(['config', 'show', '--workspace', project, '--json'], { home })).stdout);
    expect(trusted.workspace.trusted).toBe(true);
    expect(trusted.servers.map((s: { source: string; entry: { name: string } }) => [s.entry.name, s.source])).toEqual([
      ['github', path.join(project, '.mcp.json')],
      ['remote', 'global settings'],
      ['local', path.join(project, '.mcp.json')],
    ]);
    expectNoSecrets(JSON.stringify(trusted));

    fs.appendFileSync(path.join(project, '.mcp.json'), '\n');
    const changed = JSON.parse((await runBlitz(['config', 'show', '--workspace', project, '--json'], { home })).stdout);
    expect(changed.workspace.trusted).toBe(false);
    expect((await runBlitz(['trust', '--list'], { home })).stdout).toContain(`${project}  changed since trusted: run blitz trust again`);
  });

  it('trust --revoke and --list; state/ is created 0700, trust.json 0600', async () => {
    expect(fs.existsSync(path.join(home, 'state'))).toBe(false);
    await runBlitz(['trust'], { home, cwd: project });
    expect(fs.statSync(path.join(home, 'state')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(home, 'state', 'trust.json')).mode & 0o777).toBe(0o600);
    expect((await runBlitz(['trust', '--list'], { home })).stdout).toMatch(new RegExp(`^${project}  trusted  \\(since `));
    expect((await runBlitz(['trust', '--revoke', project], { home })).stdout).toBe(`No longer trusting ${project}.\n`);
    expect((await runBlitz(['trust', '--list'], { home })).stdout).toBe('No trusted projects.\n');
  });

  it('a directory without MCP config has nothing to trust', async () => {
    const empty = tempDir('blitz-empty-');
    const result = await runBlitz(['trust', empty], { home });
    fs.rmSync(empty, { recursive: true });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('has no MCP config (.mcp.json or .agents/mcp_config.json); nothing to trust');
  });
});
