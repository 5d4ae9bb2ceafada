import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatProblem } from './problem.js';
import { readProjectConfig } from './project-config.js';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-project-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function write(rel: string, value: unknown): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

describe('readProjectConfig', () => {
  it('reads command servers and every URL alias', () => {
    write('.mcp.json', {
      mcpServers: {
        fs: { command: 'npx', args: ['-y', 'server-filesystem'], env: { A: 'b' }, cwd: 'sub' },
        a: { type: 'http', url: 'https://a.example/mcp', headers: { X: 'y' } },
        b: { httpUrl: 'https://b.example/mcp' },
        c: { serverUrl: 'https://c.example/mcp', type: 'streamable-http' },
      },
    });
    const project = readProjectConfig(root);
    expect(project.problems).toEqual([]);
    expect(project.files).toEqual([path.join(root, '.mcp.json')]);
    expect(project.servers.map((s) => [s.name, s.transport])).toEqual([
      ['fs', { kind: 'stdio', command: 'npx', args: ['-y', 'server-filesystem'], env: { A: 'b' }, cwd: 'sub' }],
      ['a', { kind: 'http', url: 'https://a.example/mcp', headers: { X: 'y' } }],
      ['b', { kind: 'http', url: 'https://b.example/mcp', headers: {} }],
      ['c', { kind: 'http', url: 'https://c.example/mcp', headers: {} }],
    ]);
    expect(project.servers[0]!.source).toEqual({ kind: 'project', file: path.join(root, '.mcp.json') });
  });

  it('skips sse, neither, both and invalid entries, saying why', () => {
    write(
      '.mcp.json',
      `{
  "mcpServers": {
    "old": { "type": "sse", "url": "https://old.example/sse" },
    "none": { "args": ["x"] },
    "both": { "command": "x", "url": "https://h/mcp" },
    "twourls": { "url": "https://h/mcp", "httpUrl": "https://h/mcp" },
    "badtype": { "command": "x", "args": "y" },
    "ok": { "command": "x" }
  }
}`,
    );
    const project = readProjectConfig(root);
    expect(project.servers.map((s) => s.name)).toEqual(['ok']);
    const file = path.join(root, '.mcp.json');
    expect(project.problems.map(formatProblem)).toEqual([
      `${file}:3: server "old", field "type": skipped: Blitz speaks stdio and streamable HTTP, not SSE ("type": "sse")`,
      `${file}:4: server "none": skipped: has neither a command nor a URL`,
      `${file}:5: server "both": skipped: has both a command and a URL`,
      `${file}:6: server "twourls": skipped: has more than one URL (url, httpUrl)`,
      `${file}:7: server "badtype", field "args": skipped: must be an array of strings, not the string "y"`,
    ]);
  });

  it("skips the entry that runs blitz connect (the clients' own way to Blitz, as the README writes it for Claude Code): Blitz would run a second Blitz inside itself", () => {
    write(
      '.mcp.json',
      `{
  "mcpServers": {
    "blitz": { "command": "blitz", "args": ["connect"] },
    "hub": { "command": "/usr/bin/node", "args": ["/opt/blitz/bin/blitz.cjs", "connect", "--workspace", "."] },
    "blitz-cli": { "command": "npx", "args": ["blitz-cli", "connect"] },
    "ok": { "command": "x" }
  }
}`,
    );
    const project = readProjectConfig(root);
    expect(project.servers.map((s) => s.name)).toEqual(['blitz-cli', 'ok']);
    const file = path.join(root, '.mcp.json');
    const why =
      'skipped: runs Blitz itself (blitz connect), the entry for the clients that read this file; Blitz offers the other servers here';
    expect(project.problems.map(formatProblem)).toEqual([
      `${file}:3: warning: server "blitz", field "command": ${why}`,
      `${file}:4: warning: server "hub", field "command": ${why}`,
    ]);
  });

  it('reads .agents/mcp_config.json too; the first file defining a name wins', () => {
    write('.mcp.json', { mcpServers: { a: { command: 'first' } } });
    write('.agents/mcp_config.json', { mcpServers: { a: { command: 'second' }, b: { command: 'b' } } });
    const project = readProjectConfig(root);
    expect(project.servers.map((s) => [s.name, s.transport.kind === 'stdio' && s.transport.command])).toEqual([
      ['a', 'first'],
      ['b', 'b'],
    ]);
    expect(project.problems.map((p) => p.message)).toEqual([`skipped: already defined in ${path.join(root, '.mcp.json')}`]);
  });

  it('a file that is not JSON is a problem naming its line', () => {
    write('.mcp.json', '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n');
    const project = readProjectConfig(root);
    expect(project.servers).toEqual([]);
    expect(formatProblem(project.problems[0]!)).toMatch(new RegExp(`^${path.join(root, '.mcp.json')}:3: not valid JSON`));
  });

  it('a file that is not JSON is named by line and column, never by its bytes (a .mcp.json linked to a secret file, issue 25)', () => {
    const secret = path.join(root, 'shadow');
    fs.writeFileSync(secret, 'root:*:20251:0:99999:7:::\ndaemon:*:20251:0:99999:7:::\n');
    fs.symlinkSync(secret, path.join(root, '.mcp.json'));
    const project = readProjectConfig(root);
    expect(project.problems.map(formatProblem)).toEqual([
      `${path.join(root, '.mcp.json')}:1: not valid JSON: expected a value at line 1, column 1`,
    ]);
    expect(JSON.stringify(project.problems)).not.toMatch(/root:|20251|daemon/);
    write('.agents/mcp_config.json', '{\n  "mcpServers": {\n    "a": { "command": "secret-value-9f3" "args": [] }\n  }\n}\n');
    expect(formatProblem(readProjectConfig(root).problems[1]!)).toBe(
      `${path.join(root, '.agents', 'mcp_config.json')}:3: not valid JSON: expected "," or "}" at line 3, column 42`,
    );
  });

  it('reads a file that starts with a UTF-8 byte order mark, as client files are read', () => {
    write('.mcp.json', '\ufeff{\n  "mcpServers": {\n    "a": { "command": "x", "tool_exposure": { "p*": "odd" } }\n  }\n}\n');
    write('.agents/mcp_config.json', '\ufeff{"mcpServers": {"b": {"command": "y"}}}');
    const project = readProjectConfig(root);
    expect(project.servers.map((s) => s.name)).toEqual(['b']);
    // Lines are still the file's own.
    expect(project.problems.map(formatProblem)).toEqual([
      expect.stringMatching(/\.mcp\.json:3: server "a", field "tool_exposure\.p\*": skipped: /),
    ]);
  });

  it('warns of a key written twice, naming the file and both lines; JSON.parse keeps the last', () => {
    write(
      '.mcp.json',
      '{\n  "mcpServers": {\n    "a": { "command": "safe" },\n    "a": {\n      "command": "other",\n      "command": "last"\n    }\n  }\n}\n',
    );
    const project = readProjectConfig(root);
    expect(project.servers.map((s) => s.transport.kind === 'stdio' && s.transport.command)).toEqual(['last']);
    const file = path.join(root, '.mcp.json');
    expect(project.problems.map(formatProblem)).toEqual([
      `${file}:4: warning: key "a" is written twice (first on line 3); the last one is used`,
      `${file}:6: warning: key "command" is written twice (first on line 5); the last one is used`,
    ]);
  });

  it("a server left out for one field is that server's error, not a warning", () => {
    write('.mcp.json', '{\n  "mcpServers": {\n    "evil": { "command": "sh", "sandbox": false, "sandbox_write": ["/tmp"] }\n  }\n}\n');
    const project = readProjectConfig(root);
    expect(project.servers).toEqual([]);
    expect(project.problems).toEqual([expect.objectContaining({ severity: 'error', server: 'evil', field: 'sandbox_write', line: 3 })]);
  });

  it("a project's server is never shared: share is a warning and the server is kept, unshared", () => {
    write('.mcp.json', '{\n  "mcpServers": {\n    "mine": { "command": "x", "share": true }\n  }\n}\n');
    const project = readProjectConfig(root);
    expect(project.servers.map((s) => [s.name, s.share])).toEqual([['mine', false]]);
    expect(project.problems.map(formatProblem)).toEqual([
      `${path.join(root, '.mcp.json')}:3: warning: server "mine", field "share": is only for servers in settings.toml: a project's server runs for its project alone; it is not shared`,
    ]);
  });

  it('reads exposure and tool_exposure as settings.toml does; a value Blitz refuses skips its server, named by file, line, server and field (issue 16)', () => {
    write(
      '.mcp.json',
      '{\n  "mcpServers": {\n    "docs": { "command": "x", "exposure": "deferred", "tool_exposure": { "search_*": "direct" } },\n    "odd": { "command": "y", "exposure": "lazy" }\n  }\n}\n',
    );
    const project = readProjectConfig(root);
    expect(project.servers.map((s) => [s.name, s.exposure, s.toolExposure])).toEqual([['docs', 'deferred', { 'search_*': 'direct' }]]);
    expect(project.problems.map(formatProblem)).toEqual([
      `${path.join(root, '.mcp.json')}:4: server "odd", field "exposure": skipped: "lazy" is not an exposure: use "direct", "deferred" or "hidden"`,
    ]);
  });

  it('no files, no servers', () => {
    expect(readProjectConfig(root)).toMatchObject({ root, files: [], servers: [], problems: [] });
  });

  it("names the line of a problem's field, and serverLine finds a field's line (its alias too) for warnings found once the server runs", () => {
    write(
      '.mcp.json',
      `{
  "mcpServers": {
    "gh": {
      "command": "gh-mcp",
      "enabled_tools": ["pr_list"],
      "tool_exposure": {
        "pr_*": "hidden"
      },
      "share": true
    },
    "bad": {
      "command": "x",
      "timeout_seconds": 0
    }
  }
}`,
    );
    const project = readProjectConfig(root);
    const file = path.join(root, '.mcp.json');
    expect(project.problems.map(formatProblem)).toEqual([
      expect.stringContaining(`${file}:9: warning: server "gh", field "share": `),
      `${file}:13: server "bad", field "timeout_seconds": skipped: must be at least 1, not 0`,
    ]);
    const gh = project.servers.find((s) => s.name === 'gh')!;
    expect(project.serverLine(gh, 'tools')).toBe(5);
    expect(project.serverLine(gh, 'tool_exposure.pr_*')).toBe(7);
    expect(project.serverLine(gh, 'tool_exposure.issue_*')).toBe(6);
    expect(project.serverLine(gh, 'prefix')).toBe(3);
    expect(project.serverLine(gh)).toBe(3);
  });
});
