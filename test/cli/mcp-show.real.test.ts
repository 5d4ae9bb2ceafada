import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSettings } from '../../packages/core/src/config/settings.js';
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
    expect(untrusted.workspace.problems).toEqual([
      expect.stringContaining('server "legacy", field "type": skipped: Blitz speaks stdio and streamable HTTP, not SSE'),
    ]);

    const trust = await runBlitz(['trust', project], { home });
    // The sse entry is left out: named as a server not used, not only as a problem (issue 25 point 12).
    expect(trust.stdout).toBe(`Trusted ${project}: 2 MCP servers (github, local); 1 MCP server not used for errors (legacy), see below.\n`);
    expect(trust.stderr).toContain(`server "legacy", field "type": skipped: `);
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

  it('lists a server’s idle_timeout_seconds with its entry and [hub]’s; a bad one is named by file, line, server and field', async () => {
    const file = path.join(home, 'settings.toml');
    fs.writeFileSync(
      file,
      '[hub]\nidle_timeout_seconds = 900\n\n[[mcp.servers]]\nname = "mem"\ncommand = "mem-mcp"\nidle_timeout_seconds = 0\n',
    );
    const shown = await runBlitz(['config', 'show'], { home });
    expect(shown.stdout).toContain('name = "mem"\ncommand = "mem-mcp"\nidle_timeout_seconds = 0\n');
    expect(shown.stdout).toContain('catalog_cache = true\nidle_timeout_seconds = 900\n');
    fs.writeFileSync(file, '[[mcp.servers]]\nname = "mem"\ncommand = "mem-mcp"\nidle_timeout_seconds = "10m"\n');
    const bad = await runBlitz(['config', 'show'], { home });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(`${file}:4: server "mem", field "idle_timeout_seconds": must be a number, not the string "10m"`);
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

  it("mcp get of a server the current project's .mcp.json defines says where it is, not only that settings.toml lacks it", async () => {
    const result = await runBlitz(['mcp', 'get', 'local'], { home, cwd: project });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(
      `blitz: no MCP server named "local" in ${path.join(home, 'settings.toml')}; "local" is a server of the project ${project} (${path.join(project, '.mcp.json')}): blitz config show --workspace ${project} shows it\n`,
    );
  });

  it('config show --workspace of a folder that does not exist says so, not "no project MCP config"', async () => {
    const missing = path.join(home, 'no-such-project');
    expect(await runBlitz(['config', 'show', '--workspace', missing], { home })).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `blitz: the workspace ${missing} does not exist (--workspace)\n`,
    });
  });

  it('a folder that does not exist is said to be missing, not to lack an MCP config', async () => {
    const missing = path.join(home, 'no-such-project');
    const result = await runBlitz(['trust', missing], { home });
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: `blitz: ${missing} does not exist; nothing to trust\n` });
    expect((await runBlitz(['trust', path.join(home, 'settings.toml')], { home })).stderr).toBe(
      `blitz: ${path.join(home, 'settings.toml')} is not a folder; nothing to trust\n`,
    );
  });
});

describe('blitz config show: the large-catalog settings (issue 16)', () => {
  const settings = `[hub]
deferred = "always"
max_tools = 40

[hub.clients."Visual Studio Code"]
max_tools = 64

[hub.clients.windsurf-client]

[[mcp.servers]]
name = "gh"
command = "github-mcp-server"
exposure = "deferred"
tool_exposure = { "issue_*" = "hidden", search_code = "direct" }
`;
  beforeEach(() => fs.writeFileSync(path.join(home, 'settings.toml'), settings));

  it("prints exposure, tool_exposure, [hub] deferred and max_tools, and each client's table as settings.toml writes them; the output reads back as the same settings", async () => {
    const result = await runBlitz(['config', 'show'], { home });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'name = "gh"\ncommand = "github-mcp-server"\nexposure = "deferred"\ntool_exposure = { "issue_*" = "hidden", search_code = "direct" }\n',
    );
    expect(result.stdout.slice(result.stdout.indexOf('[hub]'))).toBe(
      [
        '[hub]',
        'max_result_mb = 8',
        'list_wait_ms = 5000',
        'catalog_cache = true',
        'idle_timeout_seconds = 600',
        'deferred = "always"',
        'max_tools = 40',
        '# built-in settings of known clients, where none is set below: "claude-code" deferred "never" (under "auto"), "Visual Studio Code" max_tools 128, "Visual Studio Code - Insiders" max_tools 128, "windsurf-client" max_tools 100',
        '',
        '[hub.clients."Visual Studio Code"]',
        'max_tools = 64',
        '',
        '[hub.clients.windsurf-client]',
        '',
      ].join('\n'),
    );
    const shown = parseSettings(result.stdout, 'shown');
    expect(shown.problems).toEqual([]);
    const given = parseSettings(settings, 'given').settings;
    expect(shown.settings.hub).toEqual(given.hub);
    expect(shown.settings.servers.map(({ exposure, toolExposure }) => ({ exposure, toolExposure }))).toEqual([
      { exposure: 'deferred', toolExposure: { 'issue_*': 'hidden', search_code: 'direct' } },
    ]);
  });

  it('--json names them as settings.toml does', async () => {
    const json = JSON.parse((await runBlitz(['config', 'show', '--json'], { home })).stdout);
    expect(json.hub).toEqual({
      max_result_mb: 8,
      list_wait_ms: 5000,
      catalog_cache: true,
      idle_timeout_seconds: 600,
      deferred: 'always',
      max_tools: 40,
      clients: { 'Visual Studio Code': { max_tools: 64 }, 'windsurf-client': {} },
    });
    expect(json.servers[0].entry).toMatchObject({ exposure: 'deferred', tool_exposure: { 'issue_*': 'hidden', search_code: 'direct' } });
  });

  it("a project's .mcp.json may set exposure (shown once trusted); a bad value skips its server, named by file, line, server and field", async () => {
    const file = path.join(project, '.mcp.json');
    fs.writeFileSync(
      file,
      '{\n  "mcpServers": {\n    "docs": { "command": "docs-mcp", "exposure": "hidden", "tool_exposure": { "search": "direct" } },\n    "odd": { "command": "odd-mcp", "exposure": "lazy" },\n    "odder": { "command": "odd-mcp", "tool_exposure": { "x": "soon" } }\n  }\n}\n',
    );
    expect((await runBlitz(['trust', project], { home })).code).toBe(0);
    const shown = await runBlitz(['config', 'show', '--workspace', project], { home });
    expect(shown.stdout).toContain(
      `#   ${file}:4: server "odd", field "exposure": skipped: "lazy" is not an exposure: use "direct", "deferred" or "hidden"`,
    );
    expect(shown.stdout).toContain(
      `#   ${file}:5: server "odder", field "tool_exposure.x": skipped: "soon" is not an exposure: use "direct", "deferred" or "hidden"`,
    );
    expect(shown.stdout).toContain(
      `[[mcp.servers]]  # from ${file}\nname = "docs"\ncommand = "docs-mcp"\nexposure = "hidden"\ntool_exposure = { search = "direct" }\n`,
    );
    expect(shown.stdout).not.toContain('name = "odd"');
  });
});
