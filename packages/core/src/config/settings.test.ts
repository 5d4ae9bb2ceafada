import { describe, expect, it } from 'vitest';
import { formatProblem, hasErrors } from './problem.js';
import { DEFAULT_DAEMON_PORT, parseSettings } from './settings.js';

const FILE = '/home/u/.config/blitz/settings.toml';

function problemsOf(text: string): string[] {
  return parseSettings(text, FILE).problems.map(formatProblem);
}

describe('parseSettings', () => {
  it('reads servers, aliases and defaults', () => {
    const { settings, problems } = parseSettings(
      `
[[mcp.servers]]
name = "fs"
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "."]
env = { ROOT = "/tmp" }

[[mcp.servers]]
name = "remote"
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer \${TOKEN}" }
enabled = false
enabled_tools = ["search"]
tool_timeout_sec = 20
startup_timeout_sec = 5
prefix = "rem"
agents = ["*"]
auto_approve = true

[daemon]
workspace_idle_minutes = 3
`,
      FILE,
    );
    expect(problems).toEqual([]);
    expect(settings.daemon).toEqual({ port: DEFAULT_DAEMON_PORT, workspaceIdleMinutes: 3 });
    expect(settings.servers).toEqual([
      {
        name: 'fs',
        transport: { kind: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], env: { ROOT: '/tmp' } },
        autoApprove: false,
        sandbox: true,
        agents: [],
        timeoutSeconds: 300,
        startupTimeoutSeconds: 30,
        disabled: false,
        sampling: false,
        share: false,
        source: { kind: 'global', file: FILE },
      },
      {
        name: 'remote',
        transport: { kind: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        tools: ['search'],
        prefix: 'rem',
        autoApprove: true,
        sandbox: true,
        agents: ['*'],
        timeoutSeconds: 20,
        startupTimeoutSeconds: 5,
        disabled: true,
        sampling: false,
        share: false,
        source: { kind: 'global', file: FILE },
      },
    ]);
  });

  it('roots: absent is the workspace, false is none, a list is those paths; sandbox_write kept as written', () => {
    const { settings, problems } = parseSettings(
      '[[mcp.servers]]\nname = "a"\ncommand = "x"\n[[mcp.servers]]\nname = "b"\ncommand = "x"\nroots = false\n' +
        '[[mcp.servers]]\nname = "c"\ncommand = "x"\nroots = ["~/src", "/data"]\nsandbox_write = ["~/.local/share/memory"]\n',
      FILE,
    );
    expect(problems).toEqual([]);
    expect(settings.servers.map((s) => [s.name, s.roots, s.sandboxWrite])).toEqual([
      ['a', undefined, undefined],
      ['b', false, undefined],
      ['c', ['~/src', '/data'], ['~/.local/share/memory']],
    ]);
  });

  it('share = true is read; other variables do not stop a server being shared, and unshared it may name the workspace', () => {
    const { settings, problems } = parseSettings(
      '[[mcp.servers]]\nname = "mem"\ncommand = "npx"\nargs = ["${HOME}/mem"]\nenv = { TOKEN = "${TOKEN}" }\nshare = true\n\n[[mcp.servers]]\nname = "fs"\ncommand = "npx"\nargs = ["${WORKSPACE}"]\n',
      FILE,
    );
    expect(problems).toEqual([]);
    expect(settings.servers.map((s) => [s.name, s.share])).toEqual([
      ['mem', true],
      ['fs', false],
    ]);
  });

  it('serverLine finds a field written under its Codex alias on its own line, not at the entry header', () => {
    const { serverLine } = parseSettings(
      `[[mcp.servers]]
name = "a"
command = "x"
enabled_tools = ["search"]
tool_timeout_sec = 20

[[mcp.servers]]
name = "b"
command = "y"
tools = ["find"]
tool_exposure = { "pr_*" = "hidden" }
`,
      FILE,
    );
    expect(serverLine('a', 'tools')).toBe(4);
    expect(serverLine('a', 'timeout_seconds')).toBe(5);
    expect(serverLine('b', 'tools')).toBe(10);
    expect(serverLine('b', 'tool_exposure.pr_*')).toBe(11);
    // Not written: the entry's header.
    expect(serverLine('a', 'tool_exposure.pr_*')).toBe(1);
    expect(serverLine('b', 'startup_timeout_seconds')).toBe(7);
    expect(serverLine('a')).toBe(1);
    expect(serverLine('none', 'tools')).toBeUndefined();
  });

  it('an empty file is empty settings', () => {
    expect(parseSettings('', FILE)).toMatchObject({ problems: [], settings: { servers: [] } });
  });

  it('reports a file that is not TOML with its line', () => {
    expect(problemsOf('[[mcp.servers]]\nname = "a"\ncommand = \n')).toEqual([
      expect.stringMatching(/^\/home\/u\/\.config\/blitz\/settings\.toml:3: not valid TOML: /),
    ]);
  });

  it.each([
    [
      'wrong type',
      'name = "a"\ncommand = "x"\nargs = "--flag"',
      'settings.toml:5: server "a", field "args": must be an array of strings, not the string "--flag"',
    ],
    [
      'wrong type in env',
      'name = "a"\ncommand = "x"\nenv = { K = 1 }',
      'settings.toml:5: server "a", field "env.K": must be a string, not the number 1',
    ],
    [
      'number as string',
      'name = "a"\ncommand = "x"\ntimeout_seconds = "30"',
      'settings.toml:5: server "a", field "timeout_seconds": must be a number, not the string "30"',
    ],
    [
      'negative idle timeout',
      'name = "a"\ncommand = "x"\nidle_timeout_seconds = -5',
      'settings.toml:5: server "a", field "idle_timeout_seconds": must be zero or more, not -5',
    ],
    [
      'idle timeout as a string',
      'name = "a"\ncommand = "x"\nidle_timeout_seconds = "10m"',
      'settings.toml:5: server "a", field "idle_timeout_seconds": must be a number, not the string "10m"',
    ],
    [
      'zero timeout',
      'name = "a"\ncommand = "x"\ntimeout_seconds = 0',
      'settings.toml:5: server "a", field "timeout_seconds": must be at least 1, not 0',
    ],
    ['neither', 'name = "a"', 'settings.toml:2: server "a": needs a command (stdio) or a url (streamable HTTP)'],
    [
      'both',
      'name = "a"\ncommand = "x"\nurl = "https://h/mcp"',
      'settings.toml:2: server "a": has both command and url; a server is either a command (stdio) or a url (streamable HTTP)',
    ],
    [
      'bad name',
      'name = "a b"\ncommand = "x"',
      'settings.toml:3: server "a b", field "name": "a b" may use only letters, digits, ".", "-" and "_"',
    ],
    [
      'name "."',
      'name = "."\ncommand = "x"',
      'settings.toml:3: server ".", field "name": "." is not a name: use a letter, digit, "-" or "_" too',
    ],
    [
      'name ".."',
      'name = ".."\ncommand = "x"',
      'settings.toml:3: server "..", field "name": ".." is not a name: use a letter, digit, "-" or "_" too',
    ],
    ['missing name', 'command = "x"', 'settings.toml:2: server "#1", field "name": is required'],
    [
      'bad prefix',
      'name = "a"\ncommand = "x"\nprefix = "a.b"',
      'settings.toml:5: server "a", field "prefix": "a.b" may use only letters, digits, "-" and "_"',
    ],
    [
      'credentials in url',
      'name = "a"\nurl = "https://u:p@h.example/mcp"',
      'settings.toml:4: server "a", field "url": must not contain credentials; put them in headers or use OAuth (blitz mcp login)',
    ],
    [
      'plain http',
      'name = "a"\nurl = "http://mcp.example.com/mcp"',
      'settings.toml:4: server "a", field "url": uses plain http to mcp.example.com; use https (plain http is allowed only to localhost, 127.0.0.1 or [::1])',
    ],
    [
      'not a url',
      'name = "a"\nurl = "mcp.example.com"',
      'settings.toml:4: server "a", field "url": needs http:// or https:// in front, such as https://mcp.example.com',
    ],
    [
      'a url without its scheme',
      'name = "a"\nurl = "localhost:3000/mcp"',
      'settings.toml:4: server "a", field "url": needs http:// or https:// in front, such as http://localhost:3000/mcp',
    ],
    ['an empty name', 'name = ""\ncommand = "x"', 'settings.toml:3: server "", field "name": is required'],
    [
      'args on url',
      'name = "a"\nurl = "https://h/mcp"\nargs = ["x"]',
      'settings.toml:5: server "a", field "args": is only for command (stdio) servers',
    ],
    [
      'headers on command',
      'name = "a"\ncommand = "x"\nheaders = { A = "b" }',
      'settings.toml:5: server "a", field "headers": is only for url (streamable HTTP) servers',
    ],
    [
      'alias twice',
      'name = "a"\ncommand = "x"\ntools = []\nenabled_tools = []',
      'settings.toml:6: server "a", field "enabled_tools": is an alias of tools; use only one of them',
    ],
    [
      'contradiction',
      'name = "a"\ncommand = "x"\ndisabled = true\nenabled = true',
      'settings.toml:6: server "a", field "enabled": contradicts disabled = true; keep one of them',
    ],
    [
      'oauth with static auth',
      'name = "a"\nurl = "https://h/mcp"\nheaders = { Authorization = "Bearer x" }\noauth = { client_id = "c" }',
      'settings.toml:5: server "a", field "headers": a static Authorization header cannot be combined with oauth; remove one of them',
    ],
    [
      'literal client secret',
      'name = "a"\nurl = "https://h/mcp"\noauth = { client_secret = "s3cr3t" }',
      'settings.toml:5: server "a", field "oauth.client_secret": must be an environment reference such as "${MY_CLIENT_SECRET}", never the secret itself',
    ],
    [
      'a client metadata document over http',
      'name = "a"\nurl = "https://h/mcp"\noauth = { client_metadata_url = "http://blitz.example/client.json" }',
      'settings.toml:5: server "a", field "oauth.client_metadata_url": must be an https URL (the address of your client ID metadata document), not http:',
    ],
    [
      'a client metadata document without a path',
      'name = "a"\nurl = "https://h/mcp"\noauth = { client_metadata_url = "https://blitz.example" }',
      'settings.toml:5: server "a", field "oauth.client_metadata_url": must have a path, such as https://example.com/blitz/client.json',
    ],
    [
      'roots = true',
      'name = "a"\ncommand = "x"\nroots = true',
      'settings.toml:5: server "a", field "roots": must be false (roots are not offered to the server) or an array of paths; leave it out for the workspace',
    ],
    [
      'a relative root',
      'name = "a"\ncommand = "x"\nroots = ["/data", "src"]',
      'settings.toml:5: server "a", field "roots": "src" is not an absolute path (start it with "/" or "~/")',
    ],
    [
      "another user's home",
      'name = "a"\ncommand = "x"\nroots = ["~bob/src"]',
      'settings.toml:5: server "a", field "roots": "~bob/src": only "~" and "~/…" (your home) are expanded, not another user\'s home',
    ],
    [
      'a root that is a number',
      'name = "a"\ncommand = "x"\nroots = 3',
      'settings.toml:5: server "a", field "roots": must be an array of strings, not the number 3',
    ],
    [
      'a relative writable path',
      'name = "a"\ncommand = "x"\nsandbox_write = ["data"]',
      'settings.toml:5: server "a", field "sandbox_write": "data" is not an absolute path (start it with "/" or "~/")',
    ],
    [
      'sandbox_write on a url',
      'name = "a"\nurl = "https://h/mcp"\nsandbox_write = ["/d"]',
      'settings.toml:5: server "a", field "sandbox_write": is only for command (stdio) servers',
    ],
    [
      'sandbox_write without the sandbox',
      'name = "a"\ncommand = "x"\nsandbox = false\nsandbox_write = ["/d"]',
      'settings.toml:6: server "a", field "sandbox_write": has no effect with sandbox = false; keep one of them',
    ],
    [
      'share not a boolean',
      'name = "a"\ncommand = "x"\nshare = "yes"',
      'settings.toml:5: server "a", field "share": must be true or false, not the string "yes"',
    ],
    [
      'shared with the workspace in args',
      'name = "a"\ncommand = "x"\nargs = ["--root", "${WORKSPACE}"]\nshare = true',
      'settings.toml:5: server "a", field "args": uses ${WORKSPACE}, which differs by workspace, so the server cannot be shared (share = true runs one copy for every workspace); remove share or the reference',
    ],
    [
      'shared with the workspace in env',
      'name = "a"\ncommand = "x"\nshare = true\nenv = { DATA = "${env:WORKSPACE}/data" }',
      'settings.toml:6: server "a", field "env.DATA": uses ${env:WORKSPACE}, which differs by workspace, so the server cannot be shared (share = true runs one copy for every workspace); remove share or the reference',
    ],
    [
      'a client entry for Blitz itself',
      'name = "hub"\ncommand = "node"\nargs = ["/opt/blitz/bin/blitz.cjs", "connect"]',
      'settings.toml:4: server "hub", field "command": runs Blitz itself (blitz connect): that is how a client reaches Blitz, not a server Blitz can run',
    ],
  ])('%s', (_, body, expected) => {
    const problems = problemsOf(`# servers\n[[mcp.servers]]\n${body}\n`);
    expect(problems.map((p) => p.replace('/home/u/.config/blitz/', ''))).toContain(expected);
    expect(hasErrors(parseSettings(`[[mcp.servers]]\n${body}\n`, FILE).problems)).toBe(true);
  });

  it('unknown fields are warnings, not errors', () => {
    const { problems, settings } = parseSettings('[[mcp.servers]]\nname = "a"\ncommand = "x"\ncolour = "red"\n[extra]\nk = 1\n', FILE);
    expect(hasErrors(problems)).toBe(false);
    expect(settings.servers).toHaveLength(1);
    expect(problems.map(formatProblem)).toEqual([
      `${FILE}:4: warning: server "a", field "colour": is not a known field and is ignored`,
      `${FILE}:5: warning: field "extra": is not a known setting and is ignored`,
    ]);
  });

  it('a name used twice names both places, and every problem is listed', () => {
    const problems = problemsOf(
      '[[mcp.servers]]\nname = "a"\ncommand = "x"\n\n[[mcp.servers]]\nname = "a"\nurl = "https://h/mcp"\n\n[[mcp.servers]]\nname = "b"\nargs = 3\n',
    );
    expect(problems).toEqual([
      `${FILE}:6: server "a", field "name": is used twice; the first is at line 1`,
      `${FILE}:11: server "b", field "args": must be an array of strings, not the number 3`,
      `${FILE}:9: server "b": needs a command (stdio) or a url (streamable HTTP)`,
    ]);
  });

  it('servers written as something other than an array of tables', () => {
    expect(problemsOf('[mcp]\nservers = "x"\n')).toEqual([
      `${FILE}:2: field "mcp.servers": must be an array of tables: write each server as [[mcp.servers]]`,
    ]);
  });

  it('a header inside a multi-line string is not a header', () => {
    const text =
      '[[mcp.servers]]\nname = "a"\ncommand = "x"\nargs = ["""\n[[mcp.servers]]\n"""]\n[[mcp.servers]]\nname = "b"\ncommand = 1\n';
    expect(problemsOf(text)).toEqual([`${FILE}:9: server "b", field "command": must be a string, not the number 1`]);
  });

  it('validates permissions, daemon and hub', () => {
    expect(
      problemsOf(
        '[permissions]\nallow = ["mcp:github:*"]\ndeny = ["github:*", 3]\n[daemon]\nport = 70000\nworkspace_idle_minutes = -1\n[hub]\nmax_result_mb = 0\n',
      ),
    ).toEqual([
      `${FILE}:3: field "permissions.deny": must be an array of strings, not an array`,
      `${FILE}:5: field "daemon.port": must be between 0 and 65535, not 70000`,
      `${FILE}:6: field "daemon.workspace_idle_minutes": must be zero or more, not -1`,
      `${FILE}:8: field "hub.max_result_mb": must be more than 0`,
    ]);
    expect(problemsOf('[permissions]\nask = ["github:*"]\n')).toEqual([
      `${FILE}:2: field "permissions.ask": "github:*" is not a pattern of the form mcp:<server>:<tool> or mcp:<server>:prompt:<prompt> (* matches anything)`,
    ]);
    // A server's prompts are named mcp:<server>:prompt:<prompt> (issue 25.3); no other third part.
    expect(problemsOf('[permissions]\ndeny = ["mcp:fx:prompt:greet", "mcp:*:prompt:*", "mcp:fx:other:x"]\n')).toEqual([
      `${FILE}:2: field "permissions.deny": "mcp:fx:other:x" is not a pattern of the form mcp:<server>:<tool> or mcp:<server>:prompt:<prompt> (* matches anything)`,
    ]);
    const { settings } = parseSettings('[permissions]\nallow = ["mcp:github:*"]\nask = ["mcp:*"]\n[hub]\nmax_result_mb = 2\n', FILE);
    expect(settings.permissions).toEqual({ allow: ['mcp:github:*'], ask: ['mcp:*'], deny: [] });
    expect(settings.hub.maxResultMb).toBe(2);
  });

  it('[oauth] client_metadata_url: a Blitz-wide client ID metadata document, https with a path, and nothing else known there', () => {
    const { settings, problems } = parseSettings('[oauth]\nclient_metadata_url = "https://blitz.example/oauth/client.json"\n', FILE);
    expect(problems).toEqual([]);
    expect(settings.oauth).toEqual({ clientMetadataUrl: 'https://blitz.example/oauth/client.json' });
    expect(parseSettings('', FILE).settings.oauth).toEqual({});
    expect(problemsOf('[oauth]\nclient_metadata_url = "https://blitz.example/"\nclient_id = "x"\n')).toEqual([
      `${FILE}:2: field "oauth.client_metadata_url": must have a path, such as https://example.com/blitz/client.json`,
      `${FILE}:3: warning: field "oauth.client_id": is not a known setting and is ignored`,
    ]);
  });

  it('list_wait_ms: 5000 by default, a whole number of ms from 0 to 600000, named by file, line and field when wrong', () => {
    expect(parseSettings('', FILE).settings.hub.listWaitMs).toBe(5000);
    expect(parseSettings('[hub]\nlist_wait_ms = 0\n', FILE).settings.hub.listWaitMs).toBe(0);
    expect(parseSettings('[hub]\nlist_wait_ms = 12000\n', FILE).settings.hub.listWaitMs).toBe(12000);
    expect(parseSettings('', FILE).settings.hub.catalogCache).toBe(true);
    expect(parseSettings('[hub]\ncatalog_cache = false\n', FILE).settings.hub.catalogCache).toBe(false);
    expect(parseSettings('[hub]\ncatalog_cache = "no"\n', FILE).problems).toContainEqual(
      expect.objectContaining({ severity: 'error', field: 'hub.catalog_cache' }),
    );
    expect(problemsOf('[hub]\nmax_result_mb = 2\nlist_wait_ms = -1\n')).toEqual([
      `${FILE}:3: field "hub.list_wait_ms": must be between 0 and 600000, not -1`,
    ]);
    expect(problemsOf('[hub]\nlist_wait_ms = 1.5\n')).toEqual([
      `${FILE}:2: field "hub.list_wait_ms": must be a whole number, not the number 1.5`,
    ]);
    expect(problemsOf('[hub]\nlist_wait_ms = "5s"\n')).toEqual([
      `${FILE}:2: field "hub.list_wait_ms": must be a whole number, not the string "5s"`,
    ]);
  });

  it('idle_timeout_seconds: 600 by default in [hub], 0 never, a server’s own unset until written; named by file, line and field when wrong', () => {
    expect(parseSettings('', FILE).settings.hub.idleTimeoutSeconds).toBe(600);
    expect(parseSettings('[hub]\nidle_timeout_seconds = 0\n', FILE).settings.hub.idleTimeoutSeconds).toBe(0);
    const servers = parseSettings(
      '[[mcp.servers]]\nname = "a"\ncommand = "x"\n\n[[mcp.servers]]\nname = "b"\ncommand = "x"\nidle_timeout_seconds = 30\n',
      FILE,
    ).settings.servers;
    expect(servers.map((s) => s.idleTimeoutSeconds)).toEqual([undefined, 30]);
    expect(problemsOf('[hub]\nidle_timeout_seconds = -1\n')).toEqual([
      `${FILE}:2: field "hub.idle_timeout_seconds": must be zero or more, not -1`,
    ]);
  });

  it('max_result_mb defaults below what SDK stdio clients read in one message, and warns when set above it', () => {
    expect(parseSettings('', FILE).settings.hub.maxResultMb).toBe(8);
    const { settings, problems } = parseSettings('[hub]\nmax_result_mb = 16\n', FILE);
    expect(settings.hub.maxResultMb).toBe(16);
    expect(problems.map((p) => [p.severity, p.field, p.line])).toEqual([['warning', 'hub.max_result_mb', 2]]);
    expect(problems[0]!.message).toContain('10 MB a message');
  });
});
