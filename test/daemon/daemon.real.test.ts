import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContainment } from '@blitz/core';
import { assertNoOrphans, isAlive } from '../../packages/core/src/testing/no-orphans.js';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

const HEADER_SECRET = 'hdr-secret-value-8d7f';
const ENV_SECRET = 'env-secret-value-3c2a';
const BEARER = 'bearer-token-6e5b';

let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;

function stdio(name: string, fixture: Parameters<typeof fixtureCommand>[0], extra = ''): string {
  const { command, args } = fixtureCommand(fixture);
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\n${extra}\n`;
}

const BASE = () =>
  `# my servers\n[daemon]\nport = 0\n\n` +
  stdio('steady', 'garbage-stdout', `env = { TOKEN = "${ENV_SECRET}" }`) +
  '\n' +
  stdio('other', 'env-dump') +
  `\n[[mcp.servers]]\nname = "remote"\nurl = "https://mcp.example.com/mcp"\nheaders = { Authorization = "Bearer ${BEARER}", "X-Key" = "${HEADER_SECRET}" }\ndisabled = true\n`;

beforeEach(() => {
  home = tempDir('blitz-daemon-');
  workspace = tempDir('blitz-ws-');
  writeSettings(home, BASE());
});

afterEach(async () => {
  if (daemon) await daemon.stop();
  daemon = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

// The control API's refusals and answers, and status, are tested in-process beside the daemon
// (apps/daemon/src/daemon.real.test.ts); what is here needs the daemon's own process.
describe('the daemon over real HTTP', () => {
  it('writes daemon.json 0600 and removes it on a clean exit', async () => {
    daemon = await startDaemonProcess(home);
    const file = path.join(home, 'state', 'daemon.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
      pid: daemon.child.pid,
      port: daemon.state.port,
      version: expect.any(String),
    });
    expect(await daemon.stop()).toBe(0);
    daemon = undefined;
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a live settings edit applies at once: the unchanged server keeps its pid, the changed one restarts, a removed one stops', async () => {
    daemon = await startDaemonProcess(home);
    const ws = await daemon.client.openWorkspace(workspace);
    const before = await daemon.client.listWorkspaceServers(ws.id, { connect: true });
    const pid = (name: string, list = before) => list.find((s) => s.name === name)!.pid!;
    expect(isAlive(pid('steady'))).toBe(true);

    // From the CLI, which edits the file; the daemon follows the file.
    expect((await runBlitz(['mcp', 'remove', 'other'], { home })).code).toBe(0);
    await expectPoll(async () => (await daemon!.client.listWorkspaceServers(ws.id)).map((s) => s.name), ['steady', 'remote']);
    // The listing changes as the removed server's stop begins; its process ends a moment later.
    await expectPoll(async () => isAlive(pid('other')), false);

    // From an editor: change one server's env, add another.
    const text =
      fs.readFileSync(path.join(home, 'settings.toml'), 'utf8').replace(`TOKEN = "${ENV_SECRET}"`, `TOKEN = "${ENV_SECRET}-2"`) +
      '\n' +
      stdio('added', 'env-dump');
    fs.writeFileSync(path.join(home, 'settings.toml'), text);
    await expectPoll(async () => (await daemon!.client.listWorkspaceServers(ws.id)).map((s) => s.name), ['steady', 'remote', 'added']);
    const after = await daemon.client.listWorkspaceServers(ws.id, { connect: true });
    expect(pid('steady', after)).not.toBe(pid('steady'));
    expect(isAlive(pid('steady'))).toBe(false);
    expect(pid('added', after)).toBeGreaterThan(0);

    // Through the API: disabling one leaves the others' processes alone.
    const added = pid('added', after);
    await daemon.client.setServerEnabled('steady', false);
    const third = await daemon.client.listWorkspaceServers(ws.id);
    expect(third.map((s) => [s.name, s.state])).toEqual([
      ['steady', 'disabled'],
      ['remote', 'disabled'],
      ['added', 'connected'],
    ]);
    expect(pid('added', third)).toBe(added);
    expect(fs.readFileSync(path.join(home, 'settings.toml'), 'utf8')).toMatch(/^# my servers\n/);
  });

  it('a broken settings file changes nothing and is reported; the next good save applies', async () => {
    daemon = await startDaemonProcess(home);
    const ws = await daemon.client.openWorkspace(workspace);
    const before = await daemon.client.listWorkspaceServers(ws.id, { connect: true });
    const good = fs.readFileSync(path.join(home, 'settings.toml'), 'utf8');
    fs.writeFileSync(path.join(home, 'settings.toml'), `${good}\n[[mcp.servers]]\nname = "broken"\n`);
    await expectPoll(
      async () => (await daemon!.client.status()).problems,
      [expect.stringContaining('server "broken": needs a command (stdio) or a url')],
    );
    const during = await daemon.client.listWorkspaceServers(ws.id);
    expect(during.map((s) => [s.name, s.pid])).toEqual(before.map((s) => [s.name, s.pid]));
    fs.writeFileSync(path.join(home, 'settings.toml'), good.replace(stdio('other', 'env-dump'), ''));
    await expectPoll(async () => (await daemon!.client.status()).problems, []);
    await expectPoll(async () => (await daemon!.client.listWorkspaceServers(ws.id)).map((s) => s.name), ['steady', 'remote']);
    const log = fs.readFileSync(path.join(home, 'logs', 'blitz.log'), 'utf8');
    expect(log).toContain('settings not applied');
  });

  it('SIGTERM closes every workspace: no server process is left', async () => {
    daemon = await startDaemonProcess(home);
    const ws = await daemon.client.openWorkspace(workspace);
    const servers = await daemon.client.listWorkspaceServers(ws.id, { connect: true });
    const pids = servers.flatMap((s) => (s.pid ? [s.pid] : []));
    expect(pids).toHaveLength(2);
    expect(await daemon.stop('SIGTERM')).toBe(0);
    daemon = undefined;
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });

  it('a second daemon is refused: in the foreground with exit 1, with start saying where the first runs', async () => {
    daemon = await startDaemonProcess(home);
    const second = await runBlitz(['daemon'], { home });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`a Blitz daemon is already running (pid ${daemon.child.pid}, http://127.0.0.1:${daemon.state.port})`);
    const start = await runBlitz(['daemon', 'start'], { home });
    expect(start).toMatchObject({
      code: 0,
      stdout: `Already running: Blitz daemon (pid ${daemon.child.pid}, version ${daemon.state.version}) on http://127.0.0.1:${daemon.state.port}\n`,
    });
  });

  it('servers a killed daemon left running are ended by the next daemon (no pid namespace)', async () => {
    // Most servers end when their stdin closes with the daemon; this one ignores that.
    writeSettings(home, `[daemon]\nport = 0\n\n${stdio('stubborn', 'ignore-sigterm', 'env = { QUIET = "1" }')}`);
    // A PATH with neither bwrap nor unshare: the server runs as it is, not in a pid namespace that dies with the daemon.
    const bare = tempDir('blitz-bare-path-');
    daemon = await startDaemonProcess(home, { PATH: bare });
    const ws = await daemon.client.openWorkspace(workspace);
    const pids = (await daemon.client.listWorkspaceServers(ws.id, { connect: true })).flatMap((s) => (s.pid ? [s.pid] : []));
    expect(pids).toHaveLength(1);
    expect(await daemon.stop('SIGKILL')).toBe(null);
    // It outlives a daemon killed hard…
    for (const pid of pids) expect(isAlive(pid)).toBe(true);
    daemon = await startDaemonProcess(home);
    // …until the next daemon starts.
    for (const pid of pids) await expectPoll(async () => isAlive(pid), false);
    expect(fs.readFileSync(path.join(home, 'logs', 'blitz.log'), 'utf8')).toContain(
      'ended MCP server processes a killed daemon left running',
    );
    fs.rmSync(bare, { recursive: true, force: true });
  });

  it.skipIf(process.platform !== 'linux' || createContainment().kind() !== 'bwrap')(
    'in bubblewrap’s pid namespace, a server that ignores the end of stdin ends with a daemon killed hard',
    async () => {
      writeSettings(home, `[daemon]\nport = 0\n\n${stdio('stubborn', 'ignore-sigterm', 'env = { QUIET = "1" }')}`);
      daemon = await startDaemonProcess(home);
      const ws = await daemon.client.openWorkspace(workspace);
      const pids = (await daemon.client.listWorkspaceServers(ws.id, { connect: true })).flatMap((s) => (s.pid ? [s.pid] : []));
      expect(pids).toHaveLength(1);
      expect(await daemon.stop('SIGKILL')).toBe(null);
      daemon = undefined;
      // bwrap --die-with-parent: its parent, the daemon, is gone, so the sandbox goes.
      for (const pid of pids) await expectPoll(async () => isAlive(pid), false);
    },
  );

  it('a stale daemon.json and lock from a killed daemon are replaced', async () => {
    daemon = await startDaemonProcess(home);
    expect(await daemon.stop('SIGKILL')).toBe(null);
    daemon = await startDaemonProcess(home);
    expect((await daemon.client.status()).pid).toBe(daemon.child.pid);
  });

  it('planted secrets never reach the log or an API answer', async () => {
    daemon = await startDaemonProcess(home);
    const ws = await daemon.client.openWorkspace(workspace);
    await daemon.client.listWorkspaceServers(ws.id, { connect: true });
    const answers = JSON.stringify([
      await daemon.client.status(),
      await daemon.client.listServerConfigs(),
      await daemon.client.getServerConfig('remote'),
      await daemon.client.getServerConfig('steady'),
      await daemon.client.listWorkspaceServers(ws.id),
    ]);
    await daemon.stop();
    daemon = undefined;
    const log = fs
      .readdirSync(path.join(home, 'logs'))
      .map((f) => fs.readFileSync(path.join(home, 'logs', f), 'utf8'))
      .join('\n');
    for (const secret of [HEADER_SECRET, ENV_SECRET, BEARER]) {
      expect(answers).not.toContain(secret);
      expect(log).not.toContain(secret);
    }
    expect(answers).toContain('"Authorization":"Bearer ***"');
  });

  it('blitz daemon start/status/stop in the background, and mcp list shows live states', async () => {
    const start = await runBlitz(['daemon', 'start'], { home });
    expect(start.code).toBe(0);
    expect(start.stdout).toMatch(/^Started Blitz daemon \(pid \d+, version [\w.-]+\) on http:\/\/127\.0\.0\.1:\d+\n$/);
    const status = await runBlitz(['daemon', 'status'], { home });
    expect(status.stdout).toMatch(
      /^The Blitz daemon is running \(pid \d+, version .+\) on http:\/\/127\.0\.0\.1:\d+, 0 open workspaces\.\n$/,
    );
    await runBlitz(['mcp', 'restart', 'steady', '--workspace', workspace], { home });
    const list = await runBlitz(['mcp', 'list'], { home });
    expect(list.stdout).toMatch(/steady .* enabled \(not started\)\n/);
    expect(list.stdout).toMatch(/remote .* disabled\n/);
    const stop = await runBlitz(['daemon', 'stop'], { home });
    expect(stop.stdout).toMatch(
      /^Stopped the Blitz daemon \(pid \d+\)\. It stays stopped until blitz daemon start: clients that connect through blitz connect are told so, and not served, until then\.\n$/,
    );
    expect((await runBlitz(['daemon', 'status'], { home })).code).toBe(3);
    // In the background the log is blitz.log alone (rotated): daemon.out, never rotated, keeps
    // what is said outside the log (the listening line, a crash), not a second copy of every entry.
    expect(fs.readFileSync(path.join(home, 'logs', 'blitz.log'), 'utf8')).toContain('"msg":"daemon started"');
    expect(fs.readFileSync(path.join(home, 'logs', 'daemon.out'), 'utf8')).toMatch(
      /^Blitz daemon listening on http:\/\/127\.0\.0\.1:\d+ \(home .+, pid \d+\)\n$/,
    );
  });
});

describe('project servers in a live workspace', () => {
  it("follow the project's .mcp.json and trust as they change, in a workspace opened after the daemon started", async () => {
    daemon = await startDaemonProcess(home);
    const { command, args } = fixtureCommand('env-dump');
    const mcpJson = (names: string[]) => JSON.stringify({ mcpServers: Object.fromEntries(names.map((n) => [n, { command, args }])) });
    fs.writeFileSync(path.join(workspace, '.mcp.json'), mcpJson(['proj']));
    expect((await runBlitz(['trust', workspace], { home })).code).toBe(0);
    const ws = await daemon.client.openWorkspace(workspace);
    const names = async () => (await daemon!.client.listWorkspaceServers(ws.id)).map((s) => s.name);
    expect(await names()).toEqual(['steady', 'other', 'remote', 'proj']);
    const pid = (await daemon.client.listWorkspaceServers(ws.id, { connect: true })).find((s) => s.name === 'proj')?.pid;
    expect(pid).toBeGreaterThan(0);
    // An edit to the project file: it is no longer trusted as it is, so its servers leave and their processes stop.
    fs.writeFileSync(path.join(workspace, '.mcp.json'), mcpJson(['proj', 'proj2']));
    await expectPoll(names, ['steady', 'other', 'remote']);
    await expect.poll(() => isAlive(pid!), { timeout: 10_000 }).toBe(false);
    // Trusting it again brings both in, without touching the daemon.
    expect((await runBlitz(['trust', workspace], { home })).code).toBe(0);
    await expectPoll(names, ['steady', 'other', 'remote', 'proj', 'proj2']);
  });
});

/** Waits for what the daemon, another process, shows through its API: asked again until it matches. */
async function expectPoll<T>(get: () => Promise<T>, expected: T): Promise<void> {
  await expect.poll(get, { timeout: 10_000 }).toEqual(expected);
}
