import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlitzLaunch } from './client-spec.js';
import { connectClient, type RunProgram } from './connect-client.js';
import { disconnectClient } from './disconnect-client.js';
import { BackupStore } from './files/backup-store.js';
import { setJsonValue } from './files/json-document.js';
import { clientById } from './specs/index.js';
import { tempHome } from './testing/temp-home.js';

const LAUNCH: BlitzLaunch = { command: '/usr/bin/node', args: ['/opt/blitz/bin/blitz.js', 'connect'], env: {} };
const claude = clientById('claude-code')!;
const ORIGINAL =
  '{\n  "numStartups": 1,\n  "mcpServers": {\n    "fs": { "command": "npx", "args": ["-y", "fs"] },\n    "gh": { "type": "http", "url": "https://g.example.com/mcp" }\n  }\n}\n';
const BLITZ = [
  { name: 'fs', command: 'npx', args: ['-y', 'fs'] },
  { name: 'gh', url: 'https://g.example.com/mcp' },
];

let t: ReturnType<typeof tempHome>;
let store: BackupStore;
let file: string;
beforeEach(() => {
  t = tempHome();
  store = new BackupStore(path.join(t.root, 'backups'));
  file = path.join(t.where.home, '.claude.json');
  fs.writeFileSync(file, ORIGINAL);
});
afterEach(() => t.cleanup());

/** Stands in for `claude mcp …`: makes the change in the file the way the client would, and records each call. */
function clientProgram(calls: string[][], failOn?: string): RunProgram {
  return async (program, args) => {
    calls.push([program, ...args]);
    if (failOn !== undefined && args.includes(failOn)) throw new Error(`${program} failed`);
    const text = fs.readFileSync(file, 'utf8');
    const name = args[4]!;
    const value = args[1] === 'add-json' ? JSON.parse(args[5]!) : undefined;
    fs.writeFileSync(file, setJsonValue(text, ['mcpServers', name], value));
  };
}

describe('connect through the client’s own command', () => {
  it('adds blitz and removes the moved servers with it, and records it for disconnect', async () => {
    const calls: string[][] = [];
    const result = await connectClient(claude, file, { launch: LAUNCH, blitzServers: BLITZ, store, ownProgram: clientProgram(calls) });
    expect(result.via).toBe('command');
    expect(calls.map((c) => c.join(' '))).toEqual([
      `claude mcp add-json --scope user blitz ${JSON.stringify({ type: 'stdio', command: '/usr/bin/node', args: ['/opt/blitz/bin/blitz.js', 'connect'] })}`,
      'claude mcp remove --scope user fs',
      'claude mcp remove --scope user gh',
    ]);
    expect((await disconnectClient(claude, file, store)).kind).toBe('restored');
    expect(fs.readFileSync(file, 'utf8')).toBe(ORIGINAL);
  });

  it('a command that fails half-way leaves a record, so disconnect still undoes what was done', async () => {
    await expect(
      connectClient(claude, file, { launch: LAUNCH, blitzServers: BLITZ, store, ownProgram: clientProgram([], 'gh') }),
    ).rejects.toThrow('claude failed');
    const record = await store.load('claude-code', file);
    expect(record?.removed.map((r) => r.name)).toEqual(['fs']);
    expect((await disconnectClient(claude, file, store)).kind).toBe('restored');
    expect(fs.readFileSync(file, 'utf8')).toBe(ORIGINAL);
  });

  it('a command that did not do what it should is refused, naming what is missing', async () => {
    const lazy: RunProgram = async () => {};
    await expect(connectClient(claude, file, { launch: LAUNCH, blitzServers: BLITZ, store, ownProgram: lazy })).rejects.toThrow(
      /claude mcp left .*\.claude\.json without the intended change \(no blitz entry, fs still there, gh still there\)/,
    );
  });
});

describe('disconnect takes away what connect created (issue 26.9)', () => {
  const opencode = clientById('opencode')!;
  it("opencode's file, made by connect and written to by opencode since: the mcp object goes with the blitz entry", async () => {
    const made = path.join(t.where.home, '.config', 'opencode', 'opencode.json');
    await connectClient(opencode, made, { launch: LAUNCH, blitzServers: [], store });
    expect(Object.keys(JSON.parse(fs.readFileSync(made, 'utf8')) as object)).toEqual(['mcp']);
    // opencode adds its schema on start: the file is no longer what connect wrote.
    fs.writeFileSync(made, setJsonValue(fs.readFileSync(made, 'utf8'), ['$schema'], 'https://opencode.ai/config.json'));
    expect((await disconnectClient(opencode, made, store)).kind).toBe('undone');
    expect(JSON.parse(fs.readFileSync(made, 'utf8'))).toEqual({ $schema: 'https://opencode.ai/config.json' });
  });

  it('an mcp object that was there before connect stays, empty', async () => {
    const mine = path.join(t.where.home, '.config', 'opencode', 'opencode.json');
    fs.mkdirSync(path.dirname(mine), { recursive: true });
    fs.writeFileSync(mine, '{\n  "mcp": {}\n}\n');
    await connectClient(opencode, mine, { launch: LAUNCH, blitzServers: [], store });
    fs.writeFileSync(mine, setJsonValue(fs.readFileSync(mine, 'utf8'), ['theme'], 'dark'));
    expect((await disconnectClient(opencode, mine, store)).kind).toBe('undone');
    expect(JSON.parse(fs.readFileSync(mine, 'utf8'))).toEqual({ mcp: {}, theme: 'dark' });
  });
});

describe("Codex's comments above its servers stay through connect and disconnect (issue 26.9)", () => {
  const codex = clientById('codex')!;
  const CONFIG = [
    'model = "gpt-5-codex"',
    '',
    '# Servers',
    '[mcp_servers.docs]',
    'command = "docs-mcp"',
    '',
    '# Runs in CI too',
    '[mcp_servers.shell]',
    'command = "mcp-shell"',
    '',
    '[profiles.fast]',
    'model = "o4-mini"',
    '',
  ].join('\n');
  const servers = [
    { name: 'docs', command: 'docs-mcp' },
    { name: 'shell', command: 'mcp-shell' },
  ];
  let config: string;
  beforeEach(() => {
    config = path.join(t.where.home, '.codex', 'config.toml');
    fs.mkdirSync(path.dirname(config), { recursive: true });
    fs.writeFileSync(config, CONFIG);
  });

  it('the blitz table takes the first server’s place under its comment; the other server’s comment goes with it', async () => {
    await connectClient(codex, config, { launch: LAUNCH, blitzServers: servers, store });
    expect(fs.readFileSync(config, 'utf8')).toBe(
      [
        'model = "gpt-5-codex"',
        '',
        '# Servers',
        '[mcp_servers.blitz]',
        'command = "/usr/bin/node"',
        'args = ["/opt/blitz/bin/blitz.js", "connect"]',
        '',
        '[profiles.fast]',
        'model = "o4-mini"',
        '',
      ].join('\n'),
    );
  });

  it('disconnect after a later edit puts both servers back where blitz stood, every byte as it was', async () => {
    await connectClient(codex, config, { launch: LAUNCH, blitzServers: servers, store });
    fs.appendFileSync(config, '\n[profiles.later]\nmodel = "gpt-5"\n');
    expect((await disconnectClient(codex, config, store)).kind).toBe('undone');
    expect(fs.readFileSync(config, 'utf8')).toBe(`${CONFIG}\n[profiles.later]\nmodel = "gpt-5"\n`);
  });

  it('a blitz table with no record is removed alone: the comment above it is the user’s', async () => {
    await connectClient(codex, config, { launch: LAUNCH, blitzServers: servers, store });
    await store.drop('codex', config);
    expect((await disconnectClient(codex, config, store)).kind).toBe('not-connected');
    expect(fs.readFileSync(config, 'utf8')).toBe('model = "gpt-5-codex"\n\n# Servers\n\n[profiles.fast]\nmodel = "o4-mini"\n');
  });
});
