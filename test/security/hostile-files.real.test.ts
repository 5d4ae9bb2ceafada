import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, type WorkspaceSummary } from '@blitz/client';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

/**
 * The probes of issue 11 points 1, 8 and 9, kept: files a cloned project (or a careless
 * hand) controls, which Blitz reads before any trust check. Each is that project's or that
 * file's problem, named with its path, while the daemon keeps answering and every other
 * workspace works. Before the fix a `.mcp.json` linked to /dev/zero grew the daemon until
 * it died, and a FIFO blocked its event loop until someone wrote to it.
 */

const onLinux = process.platform === 'linux';
const asRoot = process.getuid?.() === 0;

/** Ways to plant a hostile file at `file`, and what its problem says. */
const HOSTILE: Array<[string, (file: string) => void, RegExp]> = [
  ['a symlink to /dev/zero', (file) => fs.symlinkSync('/dev/zero', file), /is a character device, not a regular file/],
  ['a FIFO', (file) => execFileSync('mkfifo', [file]), /is a FIFO \(named pipe\), not a regular file/],
  // Sparse: 100 MB to a reader, nothing on disk.
  [
    'a 100 MB file',
    (file) => fs.truncateSync((fs.writeFileSync(file, '{"mcpServers": {'), file), 100 * 1024 * 1024),
    /is 100 MB, more than the \d+ MB Blitz reads/,
  ],
  ['a directory', (file) => fs.mkdirSync(file), /is a directory, not a regular file/],
];

function fixture(name: string): string {
  const { command, args } = fixtureCommand('resources');
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\n`;
}

let home: string;
let dirs: string[];
let daemon: RunningDaemon | undefined;
let clients: Client[];

beforeEach(() => {
  home = tempDir('blitz-hostile-');
  dirs = [];
  clients = [];
});

afterEach(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await daemon?.stop();
  daemon = undefined;
  await assertNoOrphans();
  for (const dir of [home, ...dirs]) fs.rmSync(dir, { recursive: true, force: true });
});

function workspace(): string {
  const dir = tempDir('blitz-hostile-ws-');
  dirs.push(dir);
  return dir;
}

/** The cheapest answer; a blocked event loop gives none (the bound is generous, only against a hang). */
async function health(): Promise<unknown> {
  const response = await fetch(`${daemon!.client.baseUrl}/v1/health`, {
    headers: { authorization: `Bearer ${daemon!.state.token}` },
    signal: AbortSignal.timeout(15_000),
  });
  return response.json();
}

async function echoThrough(root: string): Promise<string> {
  const c = await connectHub(daemon!.state, { workspace: root });
  clients.push(c);
  return textOf(await c.callTool({ name: 'echo', arguments: { text: `from ${path.basename(root)}` } }));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe.skipIf(!onLinux)('a hostile project file', () => {
  it.each(HOSTILE)(
    '.mcp.json as %s is that project’s problem; the daemon answers and other workspaces work',
    async (_what, plant, says) => {
      writeSettings(home, `[daemon]\nport = 0\n\n${fixture('fix')}`);
      daemon = await startDaemonProcess(home);
      const hostile = workspace();
      const mcpJson = path.join(hostile, '.mcp.json');
      plant(mcpJson);

      const opened: WorkspaceSummary = await daemon.client.openWorkspace(hostile);
      expect(opened.problems).toEqual([expect.stringMatching(new RegExp(`^${escape(mcpJson)}: ${says.source}`))]);
      expect(opened.trusted).toBe(false);
      expect(await health()).toMatchObject({ ok: true });

      // The project's global servers still serve it, and a clean workspace beside it works.
      expect(await echoThrough(hostile)).toBe(`from ${path.basename(hostile)}`);
      const clean = workspace();
      expect(await echoThrough(clean)).toBe(`from ${path.basename(clean)}`);
      expect((await daemon.client.listWorkspaces()).find((w) => w.root === clean)?.problems).toEqual([]);

      // The watcher keeps looking at it; a real file in its place is read at once.
      fs.rmSync(mcpJson, { recursive: true });
      fs.writeFileSync(mcpJson, '{"mcpServers": {}}');
      await expect
        .poll(async () => (await daemon!.client.listWorkspaces()).find((w) => w.root === hostile)?.problems, { timeout: 20_000 })
        .toEqual([]);
      expect(await health()).toMatchObject({ ok: true });
      expect(daemon.output()).not.toMatch(/bad_alloc|heap out of memory/);
    },
  );

  it.each(HOSTILE)('.agents/mcp_config.json as %s: blitz trust and config show finish and name it', async (_what, plant, says) => {
    const project = workspace();
    fs.mkdirSync(path.join(project, '.agents'));
    const file = path.join(project, '.agents', 'mcp_config.json');
    plant(file);
    const trust = await runBlitz(['trust', project], { home });
    expect(trust.code).toBe(0);
    expect(trust.stderr).toMatch(new RegExp(`mcp_config\\.json: ${says.source}`));
    const show = await runBlitz(['config', 'show', '--workspace', project, '--json'], { home });
    expect(show.code).toBe(0);
    expect((JSON.parse(show.stdout) as { workspace: { problems: string[] } }).workspace.problems).toEqual([expect.stringMatching(says)]);
  });

  it(".mcp.json linked to a file of the user's that is not JSON: named by line and column; its bytes are in no answer and no log (issue 25 point 10)", async () => {
    writeSettings(home, `[daemon]\nport = 0\n\n${fixture('fix')}`);
    daemon = await startDaemonProcess(home);
    const project = workspace();
    const secret = path.join(workspace(), 'shadow');
    fs.writeFileSync(secret, 'root:*:20251:0:99999:7:::\nuser:$y$j9T$secret-hash-71b:20251:0:99999:7:::\n');
    const mcpJson = path.join(project, '.mcp.json');
    fs.symlinkSync(secret, mcpJson);
    const said = `${mcpJson}:1: not valid JSON: expected a value at line 1, column 1`;
    expect((await daemon.client.openWorkspace(project)).problems).toEqual([said]);
    expect((await daemon.client.listWorkspaces()).find((w) => w.root === project)?.problems).toEqual([said]);
    const show = await runBlitz(['config', 'show', '--workspace', project], { home });
    expect(show.stdout).toContain(`#   ${said}`);
    const trust = await runBlitz(['trust', project], { home });
    await daemon.stop();
    daemon = undefined;
    const log = fs
      .readdirSync(path.join(home, 'logs'))
      .map((f) => fs.readFileSync(path.join(home, 'logs', f), 'utf8'))
      .join('\n');
    expect(log).toContain('not valid JSON: expected a value at line 1, column 1');
    for (const text of [show.stdout, show.stderr, trust.stdout, trust.stderr, log]) expect(text).not.toMatch(/root:|20251|secret-hash/);
  });

  it('a state/trust.json that is a FIFO trusts nobody, is named, and is not written over', async () => {
    writeSettings(home, `[daemon]\nport = 0\n\n${fixture('fix')}`);
    const trustFile = path.join(home, 'state', 'trust.json');
    fs.mkdirSync(path.dirname(trustFile), { recursive: true });
    execFileSync('mkfifo', [trustFile]);
    const project = workspace();
    fs.writeFileSync(path.join(project, '.mcp.json'), '{"mcpServers": {}}');
    daemon = await startDaemonProcess(home);
    const opened = await daemon.client.openWorkspace(project);
    expect(opened.problems).toEqual([expect.stringContaining(`${trustFile} is a FIFO (named pipe), not a regular file`)]);
    expect(await health()).toMatchObject({ ok: true });
    const trust = await runBlitz(['trust', project], { home });
    expect(trust.code).toBe(1);
    expect(trust.stderr).toContain(`blitz: ${trustFile} is a FIFO (named pipe), not a regular file`);
    expect(fs.statSync(trustFile).isFIFO()).toBe(true);
  });
});

describe.skipIf(!onLinux)('a hostile settings.toml', () => {
  it.each(HOSTILE)(
    'settings.toml as %s: the daemon names it and keeps its settings; edits and lists are refused clearly, by CLI and API',
    async (_what, plant, says) => {
      writeSettings(home, `[daemon]\nport = 0\n\n${fixture('fix')}`);
      daemon = await startDaemonProcess(home);
      const settings = path.join(home, 'settings.toml');
      fs.rmSync(settings);
      plant(settings);
      // The watcher reads it again: a problem, and the last good settings stay in force.
      await expect
        .poll(async () => (await daemon!.client.status()).problems, { timeout: 20_000 })
        .toEqual([expect.stringMatching(new RegExp(`^${escape(settings)}: ${says.source}`))]);
      expect((await daemon.client.status()).servers.map((s) => s.name)).toEqual(['fix']);
      expect(await health()).toMatchObject({ ok: true });

      const add = await runBlitz(['mcp', 'add', 'x', 'node', 'x.js'], { home });
      expect(add.code).toBe(1);
      expect(add.stderr).toMatch(new RegExp(`^blitz: ${escape(settings)}: ${says.source}.*; nothing was changed\\n$`));
      const list = await runBlitz(['mcp', 'list'], { home });
      expect(list.code).toBe(1);
      expect(list.stderr).toMatch(says);
      expect(list.stderr).not.toMatch(/unexpected error|\n\s+at /);

      const put = await apiError(daemon.client.saveServer({ name: 'y', command: 'node' }));
      expect({ status: put.status, code: put.code, reason: put.reason }).toEqual({
        status: 412,
        code: 'FAILED_PRECONDITION',
        reason: 'SETTINGS_UNREADABLE',
      });
      expect(put.message).toMatch(says);
      const get = await apiError(daemon.client.listServerConfigs());
      expect({ status: get.status, code: get.code }).toEqual({ status: 412, code: 'FAILED_PRECONDITION' });
      expect(get.problems).toEqual([expect.stringMatching(says)]);
      expect(await health()).toMatchObject({ ok: true });
    },
  );

  it.skipIf(asRoot)(
    'an unreadable settings.toml: a clear message, exit 1, and 412 from the API (skipped as root, who reads anything)',
    async () => {
      writeSettings(home, '[daemon]\nport = 0\n');
      daemon = await startDaemonProcess(home);
      fs.chmodSync(path.join(home, 'settings.toml'), 0o000);
      const add = await runBlitz(['mcp', 'add', 'x', 'node', 'x.js'], { home });
      expect(add.code).toBe(1);
      expect(add.stderr).toContain('cannot be read: permission denied (EACCES); nothing was changed');
      const put = await apiError(daemon.client.saveServer({ name: 'y', command: 'node' }));
      expect(put.status).toBe(412);
    },
  );

  it('invalid UTF-8 is a settings problem with its line; every edit is refused, naming the line, and the bytes stay', async () => {
    const bad = Buffer.concat([Buffer.from(`[daemon]\nport = 0\n\n${fixture('fix')}# caf`), Buffer.from([0xe9]), Buffer.from('\n')]);
    const settings = path.join(home, 'settings.toml');
    writeSettings(home, `[daemon]\nport = 0\n\n${fixture('fix')}`);
    daemon = await startDaemonProcess(home);
    fs.writeFileSync(settings, bad);
    const line = bad.subarray(0, bad.indexOf(0xe9)).toString('latin1').split('\n').length;
    await expect
      .poll(async () => (await daemon!.client.status()).problems, { timeout: 20_000 })
      .toEqual([`${settings}:${line}: is not valid UTF-8 (line ${line}, column 6); save it as UTF-8`]);

    const add = await runBlitz(['mcp', 'add', 'x', 'node', 'x.js'], { home });
    expect(add.code).toBe(1);
    expect(add.stderr).toBe(
      `blitz: ${settings}:${line}: is not valid UTF-8 (line ${line}, column 6); save it as UTF-8; nothing was changed\n`,
    );
    const disable = await runBlitz(['mcp', 'disable', 'fix'], { home });
    expect(disable.code).toBe(1);
    const put = await apiError(daemon.client.saveServer({ name: 'y', command: 'node' }));
    expect({ status: put.status, reason: put.reason }).toEqual({ status: 412, reason: 'SETTINGS_INVALID_UTF8' });
    expect(put.message).toContain(`:${line}: is not valid UTF-8`);
    expect(fs.readFileSync(settings).equals(bad)).toBe(true);
  });
});
