import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlitzLaunch } from '../client-spec.js';
import { connectClient } from '../connect-client.js';
import { disconnectClient } from '../disconnect-client.js';
import { clientById } from '../specs/index.js';
import { tempHome } from '../testing/temp-home.js';
import { BackupStore } from './backup-store.js';
import { parseJsonText } from './json-document.js';

const LAUNCH: BlitzLaunch = { command: '/opt/blitz/bin/blitz.js', args: ['connect'], env: {} };
const cursor = clientById('cursor')!;
const codex = clientById('codex')!;
const CURSOR = '{\n  // mine\n  "mcpServers": {\n    "fs": { "command": "npx", "args": ["-y", "fs"] }\n  }\n}\n';
const isRoot = process.getuid?.() === 0;

let t: ReturnType<typeof tempHome>;
let store: BackupStore;
let file: string;
beforeEach(() => {
  t = tempHome();
  store = new BackupStore(path.join(t.root, 'backups'));
  file = path.join(t.where.home, '.cursor', 'mcp.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
});
afterEach(() => t.cleanup());

const connect = (options: Partial<Parameters<typeof connectClient>[2]> = {}) =>
  connectClient(cursor, file, { launch: LAUNCH, blitzServers: [{ name: 'fs', command: 'npx', args: ['-y', 'fs'] }], store, ...options });

/** Another process writing the file, as an editor or the client itself would. */
function writeFromAnotherProcess(target: string, text: string): void {
  execFileSync(process.execPath, ['-e', 'require("fs").writeFileSync(process.argv[1], process.argv[2])', target, text]);
}

describe('files Blitz refuses to touch', () => {
  it('a file that does not parse: named with its line, never written', async () => {
    const broken = '{\n  "mcpServers": {\n    "fs": { "command": "npx", }\n    "x": 1\n}\n';
    fs.writeFileSync(file, broken);
    await expect(connect()).rejects.toThrow(new RegExp(`${file.replace(/[.]/g, '\\.')} is not valid JSON \\(line 4, column 5`));
    expect(fs.readFileSync(file, 'utf8')).toBe(broken);
    expect(fs.existsSync(store.dir)).toBe(false);
  });

  it('a TOML file that does not parse: named with its line', async () => {
    const toml = path.join(t.where.home, '.codex', 'config.toml');
    fs.mkdirSync(path.dirname(toml));
    fs.writeFileSync(toml, 'model = "o3"\n[mcp_servers.a\ncommand = "x"\n');
    await expect(connectClient(codex, toml, { launch: LAUNCH, blitzServers: [], store })).rejects.toThrow(
      /config\.toml is not valid TOML \(line 2/,
    );
  });

  it('a directory where the file should be', async () => {
    fs.mkdirSync(file);
    await expect(connect()).rejects.toThrow(/mcp\.json is a directory, not a regular file.*; nothing was changed/);
  });

  it('a FIFO (it would block a plain read)', async () => {
    execFileSync('mkfifo', [file]);
    await expect(connect()).rejects.toThrow(/mcp\.json is a FIFO \(named pipe\), not a regular file/);
  });

  it.skipIf(isRoot)('an unreadable file (skipped as root: root reads every file)', async () => {
    fs.writeFileSync(file, CURSOR, { mode: 0o000 });
    await expect(connect()).rejects.toThrow(/mcp\.json .*(permission|EACCES)/i);
  });

  it('invalid UTF-8', async () => {
    fs.writeFileSync(file, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    await expect(connect()).rejects.toThrow(/is not valid UTF-8 \(line 1, column 2\)/);
  });
});

describe('what a write keeps', () => {
  it('a symlinked file stays a link, and its target is written; disconnect restores the target', async () => {
    const real = path.join(t.root, 'dotfiles', 'cursor-mcp.json');
    fs.mkdirSync(path.dirname(real));
    fs.writeFileSync(real, CURSOR);
    fs.symlinkSync(real, file);
    await connect();
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
    expect(Object.keys(parseJsonText(fs.readFileSync(real, 'utf8'), real).mcpServers as object)).toEqual(['blitz']);
    await disconnectClient(cursor, file, store);
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toBe(CURSOR);
  });

  it('a byte-order mark', async () => {
    fs.writeFileSync(file, `\uFEFF${CURSOR}`);
    await connect();
    const text = fs.readFileSync(file, 'utf8');
    expect(text.startsWith('\uFEFF{\n  // mine')).toBe(true);
    await disconnectClient(cursor, file, store);
    expect(fs.readFileSync(file, 'utf8')).toBe(`\uFEFF${CURSOR}`);
  });

  it("the file's mode", async () => {
    fs.writeFileSync(file, CURSOR, { mode: 0o640 });
    fs.chmodSync(file, 0o640);
    await connect();
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
  });
});

describe('connect while another process writes the same file', () => {
  it("starts over from the other's text, so its change is kept", async () => {
    fs.writeFileSync(file, CURSOR);
    const theirs = CURSOR.replace('"mcpServers"', '"theirs": true,\n  "mcpServers"');
    let writes = 0;
    const result = await connect({
      beforeWrite: () => {
        if (writes++ === 0) writeFromAnotherProcess(file, theirs);
      },
    });
    expect(result.changed).toBe(true);
    const data = parseJsonText(fs.readFileSync(file, 'utf8'), file);
    expect(data.theirs).toBe(true);
    expect(Object.keys(data.mcpServers as object)).toEqual(['blitz']);
    expect(writes).toBe(2);
  });

  it("disconnect that would restore the bytes keeps a change made just before it writes, undoing only connect's", async () => {
    fs.writeFileSync(file, CURSOR);
    await connect();
    const connected = fs.readFileSync(file, 'utf8');
    const theirs = connected.replace('"mcpServers"', '"theirs": true,\n  "mcpServers"');
    let writes = 0;
    const result = await disconnectClient(cursor, file, store, {
      beforeWrite: () => {
        if (writes++ === 0) writeFromAnotherProcess(file, theirs);
      },
    });
    expect(result.kind).toBe('undone');
    const data = parseJsonText(fs.readFileSync(file, 'utf8'), file);
    expect(data.theirs).toBe(true);
    expect(data.mcpServers).toEqual({ fs: { command: 'npx', args: ['-y', 'fs'] } });
  });

  it('refuses, writing nothing, when the file keeps changing', async () => {
    fs.writeFileSync(file, CURSOR);
    let n = 0;
    await expect(connect({ beforeWrite: () => writeFromAnotherProcess(file, CURSOR.replace('mine', `edit ${++n}`)) })).rejects.toThrow(
      /kept changing while Blitz was editing it.*nothing was written/,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe(CURSOR.replace('mine', `edit ${n}`));
    expect(await store.load('cursor', file)).toBeUndefined();
  });
});
