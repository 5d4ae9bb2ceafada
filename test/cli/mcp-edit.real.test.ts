import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBlitz, tempDir } from '../support/blitz-cli.js';

const GOLDEN = path.join(import.meta.dirname, 'golden');
const COMMENTED = fs.readFileSync(path.join(GOLDEN, 'commented.toml'), 'utf8');

let home: string;
let settings: string;
beforeEach(() => {
  home = tempDir('blitz-cli-');
  settings = path.join(home, 'settings.toml');
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

/** Compares with a golden file; `UPDATE_GOLDEN=1` rewrites it (review the diff before committing). */
function expectGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) fs.writeFileSync(file, actual);
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}

describe('blitz mcp edits a richly commented settings.toml in place', () => {
  beforeEach(() => fs.writeFileSync(settings, COMMENTED));

  it.each([
    [
      'add a command server',
      ['mcp', 'add', 'memory', '--env', 'MEMORY_FILE_PATH=/tmp/m.json', '--', 'npx', '-y', '@modelcontextprotocol/server-memory'],
      'add-command.toml',
    ],
    [
      'add a URL server',
      [
        'mcp',
        'add',
        'remote',
        'https://mcp.example.com/mcp',
        '--header',
        'Authorization: Bearer ${TOKEN}',
        '--prefix',
        'rem',
        '--agents',
        'main,reviewer',
        '--timeout',
        '20',
        '--auto-approve',
      ],
      'add-url.toml',
    ],
    [
      'add a server that keeps its own folders',
      ['mcp', 'add', 'files', '--no-roots', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '/srv/data'],
      'add-no-roots.toml',
    ],
    [
      'add a server with roots and writable paths',
      [
        'mcp',
        'add',
        'memory',
        '--roots',
        '~/src',
        '--roots',
        '/data',
        '--sandbox-write',
        '~/.local/share/memory',
        '--',
        'npx',
        '-y',
        '@modelcontextprotocol/server-memory',
      ],
      'add-roots.toml',
    ],
    ['approve every tool of a server', ['mcp', 'approve', 'github'], 'approve-github.toml'],
    ['approve two tools', ['mcp', 'approve', 'fs', 'read_text_file', 'list_directory'], 'approve-tools.toml'],
    ['add a shared server', ['mcp', 'add', 'memory', '--share', 'npx', '-y', '@modelcontextprotocol/server-memory'], 'add-shared.toml'],
    ['remove a server with a sub-table', ['mcp', 'remove', 'github'], 'remove-github.toml'],
    ['remove the first server', ['mcp', 'remove', 'fs'], 'remove-fs.toml'],
    ['disable a server', ['mcp', 'disable', 'fs'], 'disable-fs.toml'],
    ['enable a Codex-style disabled server', ['mcp', 'enable', 'docs'], 'enable-docs.toml'],
    [
      'set fields of a server with a sub-table: added after its last key, before the sub-table',
      [
        'mcp',
        'set',
        'github',
        '--prefix',
        'gh',
        '--timeout',
        '60',
        '--agents',
        'main,review',
        '--tools',
        'search_code,get_issue',
        '--roots',
        '~/src',
        '--no-sandbox',
      ],
      'set-github.toml',
    ],
    [
      'set fields of a server with a multi-line array and comments; an unset of a field not there changes nothing',
      ['mcp', 'set', 'fs', '--no-roots', '--share', '--unset', 'sandbox'],
      'set-fs.toml',
    ],
  ])('%s', async (_, args, golden) => {
    const result = await runBlitz(args, { home });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expectGolden(golden, fs.readFileSync(settings, 'utf8'));
  });

  it('approve and unapprove: a whole server, then single tools; each says what still applies', async () => {
    expect((await runBlitz(['mcp', 'approve', 'fs'], { home })).stdout).toBe(
      'MCP server "fs" is auto-approved: its tools run without asking (auto_approve = true). [permissions] deny still refuses what it matches: mcp:*:delete_*.\n',
    );
    await runBlitz(['mcp', 'approve', 'fs', 'read_text_file', 'list_directory'], { home });
    expect((await runBlitz(['mcp', 'unapprove', 'fs'], { home })).stdout).toBe(
      'MCP server "fs" is no longer auto-approved: its tools are asked about again. Still allowed by [permissions] allow: mcp:fs:read_text_file, mcp:fs:list_directory (blitz mcp unapprove fs TOOL removes one).\n',
    );
    expect((await runBlitz(['mcp', 'unapprove', 'fs', 'list_directory', 'write_file'], { home })).stdout).toBe(
      'Removed mcp:fs:list_directory from [permissions] allow. mcp:fs:write_file was not there.\n',
    );
    const nothing = await runBlitz(['mcp', 'unapprove', 'fs', 'write_file'], { home });
    expect(nothing).toMatchObject({ code: 1, stderr: expect.stringContaining('mcp:fs:write_file is not in [permissions] allow') });
    expectGolden('unapprove-fs.toml', fs.readFileSync(settings, 'utf8'));
  });

  it("approve takes a tool's name as clients show it (with the server's prefix) as the server's own, and says so; a server not in settings.toml is warned of", async () => {
    await runBlitz(['mcp', 'add', 'gl', '--prefix', 'gitlab', 'npx', '-y', '@zereight/mcp-gitlab'], { home });
    const approved = await runBlitz(['mcp', 'approve', 'gl', 'gitlab__list_projects', 'get_project'], { home });
    expect(approved.stdout).toBe(
      `Allowed mcp:gl:list_projects, mcp:gl:get_project in [permissions] allow of ${settings}. (gitlab__list_projects is list_projects: clients see gl's tools with its prefix "gitlab__", rules name them as the server does.) [permissions] deny still refuses what it matches: mcp:*:delete_*.\n`,
    );
    expect(fs.readFileSync(settings, 'utf8')).toMatch(/^allow = \["mcp:gl:list_projects", "mcp:gl:get_project"\]$/m);
    expect((await runBlitz(['mcp', 'unapprove', 'gl', 'gitlab__list_projects'], { home })).stdout).toBe(
      `Removed mcp:gl:list_projects from [permissions] allow. (gitlab__list_projects is list_projects: clients see gl's tools with its prefix "gitlab__", rules name them as the server does.)\n`,
    );
    // fs has no prefix: its tools are named as the server names them, whatever they look like.
    expect((await runBlitz(['mcp', 'approve', 'fs', 'gitlab__x'], { home })).stdout).toBe(
      `Allowed mcp:fs:gitlab__x in [permissions] allow of ${settings}. [permissions] deny still refuses what it matches: mcp:*:delete_*.\n`,
    );
    const project = await runBlitz(['mcp', 'approve', 'proj', 'read'], { home });
    expect(project).toMatchObject({
      code: 0,
      stderr: `warning: no MCP server named "proj" in ${settings}; the rule is written for a project's server (.mcp.json) of that name, and matches nothing else\n`,
    });
    expect(fs.readFileSync(settings, 'utf8')).toContain('"mcp:proj:read"');
  });

  it('a shared server says so in mcp get: share, and its roots are your home', async () => {
    await runBlitz(['mcp', 'add', 'memory', '--share', 'npx', '-y', '@modelcontextprotocol/server-memory'], { home });
    const shown = (await runBlitz(['mcp', 'get', 'memory'], { home })).stdout;
    expect(shown).toMatch(/^ {2}share: +yes$/m);
    expect(shown).toMatch(/^ {2}roots: +your home \(a shared server serves every workspace\)$/m);
  });

  it('disable then enable gives back the same bytes', async () => {
    await runBlitz(['mcp', 'disable', 'github'], { home });
    expect(fs.readFileSync(settings, 'utf8')).not.toBe(COMMENTED);
    await runBlitz(['mcp', 'enable', 'github'], { home });
    expect((await runBlitz(['mcp', 'get', 'github', '--json'], { home })).stdout).toContain('"enabled": true');
    expect(fs.readFileSync(settings, 'utf8')).toBe(COMMENTED);
  });

  it('set says what it changed; set then unset gives back the same bytes', async () => {
    const set = await runBlitz(['mcp', 'set', 'fs', '--prefix', 'files', '--timeout', '20'], { home });
    expect(set).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `MCP server "fs": set prefix = "files", timeout_seconds = 20 in ${settings}.\n`,
    });
    expect(fs.readFileSync(settings, 'utf8')).toContain('  "/home/me/src",\n]\nprefix = "files"\ntimeout_seconds = 20\n\n# GitHub');
    const unset = await runBlitz(['mcp', 'set', 'fs', '--unset', 'prefix', '--unset', 'timeout'], { home });
    expect(unset.stdout).toBe(`MCP server "fs": removed prefix, timeout_seconds in ${settings}.\n`);
    expect(fs.readFileSync(settings, 'utf8')).toBe(COMMENTED);
  });

  it('arguments after -- may start with -, and unknown options before belong to the command', async () => {
    expect((await runBlitz(['mcp', 'add', 'a', '--', 'node', '--inspect', 'server.js', '--timeout', '5'], { home })).code).toBe(0);
    expect((await runBlitz(['mcp', 'add', 'b', 'npx', '-y', 'pkg'], { home })).code).toBe(0);
    const list = JSON.parse((await runBlitz(['mcp', 'list', '--json'], { home })).stdout) as Array<{ name: string; target: string }>;
    expect(list.filter((s) => ['a', 'b'].includes(s.name))).toEqual([
      { name: 'a', transport: 'stdio', target: 'node --inspect server.js --timeout 5', enabled: true },
      { name: 'b', transport: 'stdio', target: 'npx -y pkg', enabled: true },
    ]);
  });
});

describe('refusals change nothing', () => {
  it.each([
    [
      'a name in use, said once',
      ['mcp', 'add', 'fs', 'npx', 'x'],
      /^blitz: an MCP server named "fs" already exists in \S*settings\.toml\n$/,
    ],
    ['an unknown name', ['mcp', 'remove', 'nope'], /no MCP server named "nope" in .*settings\.toml/],
    ['an unknown name to enable', ['mcp', 'enable', 'nope'], /no MCP server named "nope"/],
    ['a bad name', ['mcp', 'add', 'a b', 'npx'], /MCP server "a b" is not valid\n {2}name: "a b" may use only letters/],
    ['a bad prefix', ['mcp', 'add', 'p', 'npx', '--prefix', 'a.b'], /prefix: "a.b" may use only letters, digits, "-" and "_"/],
    ['plain http to a remote host', ['mcp', 'add', 'h', 'http://mcp.example.com/mcp'], /url: uses plain http to mcp.example.com/],
    ['credentials in a URL', ['mcp', 'add', 'h', 'https://user:pw@mcp.example.com/mcp'], /url: must not contain credentials/],
    ['a header on a command', ['mcp', 'add', 'h', 'npx', '--header', 'A: b'], /--header is only for URL/],
    ['a malformed --env, without echoing it', ['mcp', 'add', 'h', 'npx', '--env', 'sekrit-value'], /--env needs KEY=value$/m],
    ['no command', ['mcp', 'add', 'h'], /missing required argument/],
    ['approving an unknown server', ['mcp', 'approve', 'nope'], /no MCP server named "nope"/],
    ['a tool name no pattern can hold', ['mcp', 'approve', 'fs', 'a b'], /"mcp:fs:a b" is not a pattern of the form mcp:<server>:<tool>/],
    [
      'a relative root',
      ['mcp', 'add', 'r', '--roots', 'src', 'npx'],
      /roots: "src" is not an absolute path \(start it with "\/" or "~\/"\)/,
    ],
    [
      'Blitz itself, as a client runs it',
      ['mcp', 'add', 'hub', '--', 'blitz', 'connect', '--workspace', '.'],
      /command: runs Blitz itself \(blitz connect\): that is how a client reaches Blitz/,
    ],
    [
      'set: a bad prefix, as add says it',
      ['mcp', 'set', 'fs', '--prefix', 'a.b'],
      /MCP server "fs" is not valid\n {2}prefix: "a.b" may use only letters, digits, "-" and "_"/,
    ],
    [
      'set: a bad timeout, as add says it',
      ['mcp', 'set', 'fs', '--timeout', 'soon'],
      /^blitz: --timeout must be a number of seconds \(at least 1\), not "soon"\n$/,
    ],
    ['set: a relative root', ['mcp', 'set', 'fs', '--roots', 'src'], /roots: "src" is not an absolute path/],
    ['set: an unknown exposure', ['mcp', 'set', 'fs', '--exposure', 'lazy'], /exposure: "lazy" is not an exposure/],
    [
      'set: a command-only field on a URL server',
      ['mcp', 'set', 'docs', '--sandbox-write', '/w'],
      /sandbox_write: is only for command \(stdio\) servers/,
    ],
    ['set: an unknown server', ['mcp', 'set', 'nope', '--prefix', 'p'], /no MCP server named "nope" in .*settings\.toml/],
    ['set: nothing to change', ['mcp', 'set', 'fs'], /give at least one setting to change/],
    ['set: a field set and unset at once', ['mcp', 'set', 'fs', '--prefix', 'p', '--unset', 'prefix'], /prefix is both set and unset/],
    [
      'set: unset of a field it does not change',
      ['mcp', 'set', 'fs', '--unset', 'command'],
      /--unset "command": not a field blitz mcp set changes/,
    ],
  ])('%s', async (_, args, message) => {
    fs.writeFileSync(settings, COMMENTED);
    const result = await runBlitz(args, { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain('sekrit-value');
    expect(fs.readFileSync(settings, 'utf8')).toBe(COMMENTED);
  });

  it('never writes over a file that does not parse, and says where it is broken', async () => {
    const broken = '# mine\n[[mcp.servers]]\nname = "a"\ncommand = \n';
    fs.writeFileSync(settings, broken);
    const result = await runBlitz(['mcp', 'add', 'b', 'npx'], { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/settings\.toml.*line 4|settings\.toml:4/);
    expect(fs.readFileSync(settings, 'utf8')).toBe(broken);
  });

  it('commands that load settings list every problem and fail', async () => {
    fs.writeFileSync(
      settings,
      '[[mcp.servers]]\nname = "a"\n\n[[mcp.servers]]\nname = "a"\ncommand = "x"\nurl = "https://h/mcp"\ntimeout_seconds = "9"\n',
    );
    const result = await runBlitz(['mcp', 'list'], { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('has 4 problems; nothing was changed');
    for (const text of [
      ':1: server "a": needs a command (stdio) or a url',
      ':5: server "a", field "name": is used twice; the first is at line 1',
      ':4: server "a": has both command and url',
      ':8: server "a", field "timeout_seconds": must be a number, not the string "9"',
    ]) {
      expect(result.stderr).toContain(text);
    }
  });

  it('a file that cannot be read is named', async () => {
    fs.mkdirSync(settings);
    const result = await runBlitz(['mcp', 'list'], { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/settings\.toml: is a directory, not a regular file/);
    const add = await runBlitz(['mcp', 'add', 'x', 'node', 'x.js'], { home });
    expect(add.code).toBe(1);
    expect(add.stderr).toMatch(/^blitz: .*settings\.toml: is a directory, not a regular file .*; nothing was changed\n$/);
  });
});

describe('writes', () => {
  it('concurrent adds all land', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `s${i}`);
    const results = await Promise.all(names.map((n) => runBlitz(['mcp', 'add', n, 'npx', n], { home })));
    expect(results.map((r) => r.code)).toEqual(names.map(() => 0));
    const list = JSON.parse((await runBlitz(['mcp', 'list', '--json'], { home })).stdout) as Array<{ name: string }>;
    expect(list.map((s) => s.name).sort()).toEqual(names);
  });

  it('a symlinked settings file stays a link, its target is edited, and its mode is kept', async () => {
    const realDir = tempDir('blitz-dotfiles-');
    const real = path.join(realDir, 'blitz.toml');
    fs.writeFileSync(real, COMMENTED, { mode: 0o640 });
    fs.chmodSync(real, 0o640);
    fs.symlinkSync(real, settings);
    try {
      expect((await runBlitz(['mcp', 'disable', 'fs'], { home })).code).toBe(0);
      expect(fs.lstatSync(settings).isSymbolicLink()).toBe(true);
      expect(fs.readFileSync(real, 'utf8')).toContain('disabled = true');
      expect(fs.statSync(real).mode & 0o777).toBe(0o640);
      expect(fs.readdirSync(realDir).sort()).toEqual(['blitz.toml']);
    } finally {
      fs.rmSync(realDir, { recursive: true, force: true });
    }
  });

  it('a new settings file is created 0600', async () => {
    expect((await runBlitz(['mcp', 'add', 'a', 'npx'], { home })).code).toBe(0);
    expect(fs.statSync(settings).mode & 0o777).toBe(0o600);
  });
});
