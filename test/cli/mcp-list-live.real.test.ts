import fs from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;

beforeEach(() => {
  home = tempDir('blitz-list-');
  workspace = tempDir('blitz-list-ws-');
});

afterEach(async () => {
  if (daemon) await daemon.stop();
  daemon = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

it('mcp list shows why a server failed on its line (its stderr line that says why) and what to do; get and --json keep the whole tail', async () => {
  const { command, args } = fixtureCommand('exit-at-start');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "broken"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\n`,
  );
  daemon = await startDaemonProcess(home);
  const ws = await daemon.client.openWorkspace(workspace);
  await daemon.client.listWorkspaceServers(ws.id, { connect: true });
  await expect.poll(async () => (await daemon!.client.status()).servers[0]?.state, { timeout: 10_000 }).toBe('failed');

  const list = await runBlitz(['mcp', 'list'], { home });
  const line = list.stdout.split('\n').find((l) => l.startsWith('broken'));
  expect(line).toMatch(/failed: it exited with code 1: exit-at-start: FAKE_API_KEY is not set; see its output: blitz mcp get broken$/);

  const [json] = JSON.parse((await runBlitz(['mcp', 'list', '--json'], { home })).stdout) as Array<{ error: string }>;
  expect(json!.error).toBe('MCP server broken exited with code 1; its stderr ends with:\nexit-at-start: FAKE_API_KEY is not set');
  const get = await runBlitz(['mcp', 'get', 'broken'], { home });
  expect(get.stdout).toMatch(
    / {2}state: +failed\n {2}error: +MCP server broken exited with code 1; its stderr ends with:\n {27}exit-at-start: FAKE_API_KEY is not set\n/,
  );
  expect(JSON.parse((await runBlitz(['mcp', 'get', 'broken', '--json'], { home })).stdout)).toMatchObject({
    state: 'failed',
    error: json!.error,
  });
});

it("mcp list names a crashed Node server's Error line, not the version banner that ends its stderr (issue 26.3)", async () => {
  const missing = `${workspace}/missing-server.js`;
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "gone"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(missing)}]\nsandbox = false\n`,
  );
  daemon = await startDaemonProcess(home);
  const ws = await daemon.client.openWorkspace(workspace);
  await daemon.client.listWorkspaceServers(ws.id, { connect: true });
  await expect.poll(async () => (await daemon!.client.status()).servers[0]?.state, { timeout: 10_000 }).toBe('failed');

  const line = (await runBlitz(['mcp', 'list'], { home })).stdout.split('\n').find((l) => l.startsWith('gone'));
  expect(line).toContain(`Error: Cannot find module '${missing}'`);
  expect(line).not.toMatch(/Node\.js v\d/);
  // The whole tail, banner included, stays for mcp get.
  expect((await runBlitz(['mcp', 'get', 'gone'], { home })).stdout).toMatch(/Node\.js v\d/);
});

it('mcp list warns of a server that lists no tools though it offers the tools capability, below the table; --json carries it', async () => {
  const server = (name: string, fixture: 'no-tools' | 'env-dump') => {
    const { command, args } = fixtureCommand(fixture);
    return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\n\n`;
  };
  writeSettings(home, `[daemon]\nport = 0\n\n${server('empty', 'no-tools')}${server('full', 'env-dump')}`);
  daemon = await startDaemonProcess(home);
  const ws = await daemon.client.openWorkspace(workspace);
  await daemon.client.listWorkspaceServers(ws.id, { connect: true });

  const warning = 'lists no tools, though it offers the tools capability (tools/list answered an empty list)';
  const list = await runBlitz(['mcp', 'list'], { home });
  expect(list.stdout.split('\n').find((l) => l.startsWith('empty'))).toMatch(/connected$/);
  expect(list.stdout.split('\n').filter((l) => l.startsWith('warning:'))).toEqual([`warning: empty: ${warning}`]);
  const json = JSON.parse((await runBlitz(['mcp', 'list', '--json'], { home })).stdout) as Array<{ name: string; warnings?: string[] }>;
  expect(json.map((r) => [r.name, r.warnings])).toEqual([
    ['empty', [warning]],
    ['full', undefined],
  ]);
});
