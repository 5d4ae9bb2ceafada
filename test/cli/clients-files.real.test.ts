import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BLITZ_BIN, runBlitz, tempDir } from '../support/blitz-cli.js';

// Without the real clients' programs: `connect` edits the files itself (clients.real.test.ts runs them).
const PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`;
const SECRETS = ['ghp_fromClaudeSecret99', 'hunter2-from-cursor', 'ctx7-codex-secret'];

const CLAUDE = `{
  "numStartups": 3,
  "mcpServers": {
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer ghp_fromClaudeSecret99" } },
    "memory": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": { "MEMORY_FILE_PATH": "\${HOME}/m.json" } }
  }
}
`;
const CURSOR = `{
  // mine
  "mcpServers": {
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": { "MEMORY_FILE_PATH": "\${env:HOME}/m.json" } },
    "postgres": { "command": "npx", "args": ["-y", "pg-mcp"], "env": { "PGPASSWORD": "hunter2-from-cursor" } }
  }
}
`;
const CODEX = `model = "o3"

# docs
[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[mcp_servers.docs.env]
KEY = "ctx7-codex-secret"

[mcp_servers.memory]
command = "npx"
args = ["-y", "other-memory"]
`;
const SETTINGS = '# my Blitz settings\n[daemon]\nport = 0 # tests\n';

let root: string;
let blitzHome: string;
let home: string;
const files = () => ({
  claude: path.join(home, '.claude.json'),
  cursor: path.join(home, '.cursor', 'mcp.json'),
  codex: path.join(home, '.codex', 'config.toml'),
});
const blitz = (...args: string[]) => runBlitz(args, { home: blitzHome, cwd: home, env: { HOME: home, PATH } });

beforeEach(() => {
  root = tempDir('blitz-clients-cli-');
  blitzHome = path.join(root, 'blitz');
  home = path.join(root, 'home');
  fs.mkdirSync(path.join(home, '.cursor'), { recursive: true });
  fs.mkdirSync(path.join(home, '.codex'));
  fs.mkdirSync(blitzHome);
  fs.writeFileSync(files().claude, CLAUDE);
  fs.writeFileSync(files().cursor, CURSOR);
  fs.writeFileSync(files().codex, CODEX);
  fs.writeFileSync(path.join(blitzHome, 'settings.toml'), SETTINGS);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function expectNoSecret(...outputs: string[]): void {
  for (const out of outputs) for (const secret of SECRETS) expect(out).not.toContain(secret);
}

describe('blitz clients', () => {
  it('lists every client with its file, whether found, connected, and its servers', async () => {
    const result = await blitz('clients', '--json');
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as { id: string; file: string; found: boolean; pointsAtBlitz: boolean; servers: number }[];
    expect(rows.map((r) => r.id)).toEqual([
      'claude-code',
      'claude-desktop',
      'cursor',
      'vscode',
      'windsurf',
      'codex',
      'gemini',
      'zed',
      'opencode',
    ]);
    expect(rows.filter((r) => r.found).map((r) => [r.id, r.file, r.servers, r.pointsAtBlitz])).toEqual([
      ['claude-code', files().claude, 2, false],
      ['cursor', files().cursor, 2, false],
      ['codex', files().codex, 2, false],
    ]);
    const table = await blitz('clients');
    expect(table.stdout).toMatch(/^cursor +~\/\.cursor\/mcp\.json +found +- +2 +100, then search$/m);
  });

  it('one client file nested 5,000 levels deep is that client’s problem: the others are listed and imported', async () => {
    const opencode = path.join(home, '.config', 'opencode', 'opencode.json');
    fs.mkdirSync(path.dirname(opencode), { recursive: true });
    fs.writeFileSync(opencode, `{"mcp": {}, "x": ${'['.repeat(5_000)}${']'.repeat(5_000)}}`);
    const table = await blitz('clients');
    expect(table.stderr).not.toMatch(/unexpected error|RangeError/);
    expect(table.stdout).toMatch(/^opencode +~\/\.config\/opencode\/opencode\.json +unreadable +- +- +100, then search$/m);
    expect(table.stdout).toMatch(/^cursor +~\/\.cursor\/mcp\.json +found +- +2 +100, then search$/m);
    expect(table.stderr).toContain(`blitz: ${opencode} nests objects and arrays deeper than 64 levels (line 1, column`);
    const rows = JSON.parse((await blitz('clients', '--json')).stdout) as { id: string; found: boolean; error?: string }[];
    expect(rows.filter((r) => r.found).map((r) => r.id)).toEqual(['claude-code', 'cursor', 'codex', 'opencode']);
    expect(rows.find((r) => r.id === 'opencode')!.error).toContain('deeper than 64 levels');
    const imported = await blitz('clients', 'import');
    expect(imported.stdout).toContain('Imported 4 MCP servers');
    expect(imported.stderr).toContain(`blitz: ${opencode} nests objects and arrays deeper than 64 levels`);
    expect(imported.code).toBe(1);
  });

  it('a client file past 8 MB (the bound of settings.toml) is refused, naming it and the bound, and never printed; Claude Code’s history-holding file may be larger', async () => {
    const vscode = path.join(home, '.config', 'Code', 'User', 'mcp.json');
    fs.mkdirSync(path.dirname(vscode), { recursive: true });
    const filler = 'x'.repeat(9 * 1024 * 1024);
    fs.writeFileSync(vscode, JSON.stringify({ servers: { big: { command: 'npx', args: [filler] } } }));
    fs.writeFileSync(files().claude, JSON.stringify({ history: filler, ...JSON.parse(CLAUDE) }));
    const table = await blitz('clients');
    expect(table.stdout).toMatch(/^vscode +~\/\.config\/Code\/User\/mcp\.json +unreadable +- +- +128, then search$/m);
    expect(table.stdout).toMatch(/^claude-code +~\/\.claude\.json +found +- +2 +all listed$/m);
    expect(table.stderr).toContain(
      `blitz: ${vscode} is 9 MB, more than the 8 MB Blitz reads from such a file; it was not read; nothing was changed`,
    );
    const dry = await blitz('clients', 'connect', 'vscode', '--dry-run');
    expect(dry.stdout.length + dry.stderr.length).toBeLessThan(10_000);
    expect(dry.stderr).toContain(`${vscode} is 9 MB, more than the 8 MB`);
  });

  it('import: once per server, conflicts with both definitions, comments in settings.toml kept, no secret printed', async () => {
    const dry = await blitz('clients', 'import', '--dry-run');
    expect(dry.code).toBe(0);
    expect(fs.readFileSync(path.join(blitzHome, 'settings.toml'), 'utf8')).toBe(SETTINGS);
    expect(dry.stdout).toContain('Would import 4 MCP servers');

    const result = await blitz('clients', 'import');
    expect(result.code).toBe(0);
    expectNoSecret(dry.stdout, dry.stderr, result.stdout, result.stderr);
    expect(result.stdout).toContain(
      '  + github: https://api.githubcopilot.com/mcp/ (headers: Authorization) from claude-code ~/.claude.json',
    );
    expect(result.stdout).toContain('  = memory from cursor ~/.cursor/mcp.json: the same server as memory from claude-code; imported once');
    expect(result.stdout).toMatch(
      /! conflict: two different servers named memory; nothing was guessed\n {6}kept {5}claude-code ~\/\.claude\.json: npx -y @modelcontextprotocol\/server-memory \(env: MEMORY_FILE_PATH\)\n {6}not kept codex ~\/\.codex\/config\.toml: npx -y other-memory/,
    );
    const settings = fs.readFileSync(path.join(blitzHome, 'settings.toml'), 'utf8');
    expect(settings.startsWith(SETTINGS)).toBe(true);
    const list = JSON.parse((await blitz('mcp', 'list', '--json')).stdout) as { name: string }[];
    expect(list.map((s) => s.name)).toEqual(['github', 'memory', 'postgres', 'docs']);
    // The literal secret was imported as it is, and `mcp get` masks it as always.
    expect(settings).toContain('hunter2-from-cursor');
    const get = await blitz('mcp', 'get', 'postgres', '--json');
    expect(get.stdout).toContain('"PGPASSWORD": "***"');
    expectNoSecret(get.stdout);

    const again = await blitz('clients', 'import');
    expect(again.stdout).toContain('Imported 0 MCP servers');
    expect(fs.readFileSync(path.join(blitzHome, 'settings.toml'), 'utf8')).toBe(settings);
  });

  it('import: secrets in arguments are masked alike with and without --dry-run, in text and --json, and every argument is kept', async () => {
    const args = [
      '-y',
      'mcp-remote',
      '--token=SECRET_ARG_123456',
      '-H',
      'Authorization: Bearer SECRET_BEARER_654321',
      '--after',
      'kept-arg',
    ];
    fs.writeFileSync(files().claude, JSON.stringify({ mcpServers: { remote: { command: 'npx', args } } }));
    fs.rmSync(files().cursor);
    fs.rmSync(files().codex);
    const shown = "npx -y mcp-remote '--token=***' -H 'Authorization: Bearer ***' --after kept-arg";
    const dry = await blitz('clients', 'import', '--dry-run');
    const dryJson = await blitz('clients', 'import', '--dry-run', '--json');
    const real = await blitz('clients', 'import');
    for (const out of [dry, dryJson, real]) {
      expect(out.code).toBe(0);
      expect(out.stdout + out.stderr).not.toMatch(/SECRET_ARG_123456|SECRET_BEARER_654321/);
    }
    expect(dry.stdout).toContain(`  + remote: ${shown} from claude-code ~/.claude.json`);
    expect((JSON.parse(dryJson.stdout) as { wouldAdd: { server: string }[] }).wouldAdd[0]!.server).toBe(shown);
    expect(real.stdout).toContain(`  + remote: ${shown} from claude-code ~/.claude.json`);
  });

  it('connect: a masked diff first, then the files; twice changes nothing; disconnect gives back the bytes', async () => {
    await blitz('clients', 'import', 'claude-code', 'cursor');
    const dry = await blitz('clients', 'connect', '--all', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`--- ${files().cursor}`);
    expect(dry.stdout).toContain('-    "postgres": { "command": "npx", "args": ["-y", "pg-mcp"], "env": { "PGPASSWORD": "***" } }');
    expectNoSecret(dry.stdout);
    expect([
      fs.readFileSync(files().claude, 'utf8'),
      fs.readFileSync(files().cursor, 'utf8'),
      fs.readFileSync(files().codex, 'utf8'),
    ]).toEqual([CLAUDE, CURSOR, CODEX]);

    const connect = await blitz('clients', 'connect', '--all');
    expect(connect.code).toBe(0);
    expect(connect.stdout).toContain(
      'claude-code: connected ~/.claude.json: added the blitz entry; took out 2 servers Blitz now runs (github, memory).',
    );
    expect(connect.stdout).toContain('Claude Code keeps this file in memory while it runs: restart it');
    expect(connect.stdout).toContain('  kept docs: not in Blitz yet (blitz clients import adds it)');
    const cursor = JSON.parse(fs.readFileSync(files().cursor, 'utf8').replace('// mine', '')) as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    expect(Object.keys(cursor.mcpServers)).toEqual(['blitz']);
    expect(cursor.mcpServers.blitz).toEqual({
      command: process.execPath,
      args: [BLITZ_BIN, 'connect'],
      env: { BLITZ_HOME: blitzHome },
    });
    expect(fs.readFileSync(files().cursor, 'utf8')).toContain('// mine');

    const twice = await blitz('clients', 'connect', '--all');
    expect(twice.stdout).toMatch(/cursor: ~\/\.cursor\/mcp\.json already points at Blitz; nothing changed\./);
    expect((await blitz('clients', '--json')).stdout).toMatch(/"id": "cursor",[^}]*"pointsAtBlitz": true/);

    expect(await blitz('clients', 'disconnect', 'cursor', '--all')).toMatchObject({
      code: 1,
      stderr: 'blitz: give client names or --all, not both\n',
    });
    // --all, as connect takes it: every connected client, as naming none does.
    const disconnect = await blitz('clients', 'disconnect', '--all');
    expect(disconnect.code).toBe(0);
    expect(disconnect.stdout).toContain('cursor: ~/.cursor/mcp.json restored to what connect found, byte for byte.');
    expect([
      fs.readFileSync(files().claude, 'utf8'),
      fs.readFileSync(files().cursor, 'utf8'),
      fs.readFileSync(files().codex, 'utf8'),
    ]).toEqual([CLAUDE, CURSOR, CODEX]);
    const backups = fs.readdirSync(path.join(blitzHome, 'state', 'client-backups'));
    expect(backups.filter((f) => f.startsWith('cursor-') && f.endsWith('-mcp.json'))).toHaveLength(1);
  });

  it('a broken client file is named with its line and left alone; the others are connected', async () => {
    fs.writeFileSync(files().cursor, '{ "mcpServers": { ,, } }\n');
    const list = await blitz('clients');
    expect(list.stderr).toMatch(/mcp\.json is not valid JSON \(line 1, column 19/);
    const connect = await blitz('clients', 'connect', '--all');
    expect(connect.code).toBe(1);
    expect(connect.stderr).toMatch(/blitz: cursor: .*mcp\.json is not valid JSON \(line 1/);
    expect(connect.stdout).toContain('claude-code: connected');
    expect(fs.readFileSync(files().cursor, 'utf8')).toBe('{ "mcpServers": { ,, } }\n');
  });

  it('import --project: the project files into its .mcp.json, to be trusted', async () => {
    const project = path.join(root, 'app');
    fs.mkdirSync(path.join(project, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(project, '.vscode', 'mcp.json'),
      '{ "servers": { "local": { "type": "stdio", "command": "node", "args": ["tools.js"] }, "gh": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer ghp_fromClaudeSecret99" } } } }\n',
    );
    await blitz('clients', 'import', 'claude-code');
    const result = await blitz('clients', 'import', '--project', project);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Blitz runs them only once you trust the project (blitz trust ${project})`);
    expect(JSON.parse(fs.readFileSync(path.join(project, '.mcp.json'), 'utf8'))).toEqual({
      mcpServers: { local: { command: 'node', args: ['tools.js'] } },
    });
    expect(result.stdout).toMatch(/= gh from vscode .*: already in Blitz as github/);
  });

  it("Claude Code's local scope (claude mcp add's default: ~/.claude.json projects.<dir>.mcpServers): named by a user import, imported with --project DIR", async () => {
    const project = path.join(root, 'app');
    fs.mkdirSync(project);
    const claude = JSON.parse(CLAUDE) as Record<string, unknown>;
    fs.writeFileSync(
      files().claude,
      JSON.stringify(
        {
          ...claude,
          projects: {
            [project]: { allowedTools: [], mcpServers: { localmem: { type: 'stdio', command: 'node', args: ['mem.js'], env: {} } } },
          },
        },
        null,
        2,
      ),
    );
    const user = await blitz('clients', 'import', 'claude-code');
    expect(user.code).toBe(0);
    expect(user.stdout).toContain(
      `  skipped localmem from claude-code ~/.claude.json: Claude Code keeps it for ${project} alone (its local scope): blitz clients import claude-code --project ${project}\n`,
    );
    expect(fs.readFileSync(path.join(blitzHome, 'settings.toml'), 'utf8')).not.toContain('localmem');
    expect((await blitz('clients', '--project', project)).stdout).toMatch(/^claude-code +~\/\.claude\.json +found +- +1 +all listed$/m);
    const imported = await blitz('clients', 'import', 'claude-code', '--project', project);
    expect(imported.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(project, '.mcp.json'), 'utf8'))).toEqual({
      mcpServers: { localmem: { command: 'node', args: ['mem.js'] } },
    });
  });

  it.each([
    [['clients', 'connect'], /name the clients to connect/],
    [['clients', 'connect', 'emacs'], /unknown client "emacs"; known clients: claude-code, /],
    [['clients', 'import', 'cursor', 'nope'], /unknown client "nope"/],
    [['clients', 'import', '--project', '/no/such/project'], /^blitz: the project \/no\/such\/project does not exist \(--project\)\n$/],
    [['clients', '--project', '/no/such/project'], /^blitz: the project \/no\/such\/project does not exist \(--project\)\n$/],
  ])('refuses %j', async (args, message) => {
    const result = await blitz(...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});
