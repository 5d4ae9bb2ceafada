import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans, canListProcesses, isAlive } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub } from '../support/hub-client.js';

let home: string;
let workspace: string;
let pidFile: string;
let daemon: RunningDaemon | undefined;
let client: Client | undefined;
let grandchild: number | undefined;

beforeEach(() => {
  home = tempDir('blitz-tree-');
  workspace = tempDir('blitz-tree-ws-');
  pidFile = path.join(home, 'grandchild.pid');
  const { command, args } = fixtureCommand('spawn-grandchild', ['--setsid']);
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "tree"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\nenv = { GRANDCHILD_PID_FILE = ${JSON.stringify(pidFile)} }\n`,
  );
});

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  if (daemon) await daemon.stop();
  daemon = undefined;
  // Reparented to init it is no descendant of ours: a failed test must not leave it running.
  const left = grandchild !== undefined && isAlive(grandchild);
  if (left) process.kill(grandchild!, 'SIGKILL');
  grandchild = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
  expect(left, 'the setsid grandchild outlived the test').toBe(false);
});

/** Starts the daemon and the server; returns the grandchild that left the server's session. */
async function startTree(): Promise<number> {
  daemon = await startDaemonProcess(home);
  client = await connectHub(daemon.state, { workspace });
  await client.listTools();
  await expect.poll(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '', { timeout: 10_000 }).toBe(true);
  grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
  expect(isAlive(grandchild)).toBe(true);
  return grandchild;
}

async function gone(pid: number): Promise<void> {
  await expect.poll(() => isAlive(pid), { timeout: 15_000 }).toBe(false);
}

describe.skipIf(!canListProcesses)('a stdio server’s setsid() grandchild (sandbox = false) is ended with it', () => {
  it('when the server is disabled', async () => {
    const pid = await startTree();
    expect((await runBlitz(['mcp', 'disable', 'tree'], { home })).code).toBe(0);
    await gone(pid);
  });

  it('when the daemon is stopped with SIGTERM', async () => {
    const pid = await startTree();
    expect(await daemon!.stop('SIGTERM')).toBe(0);
    daemon = undefined;
    await gone(pid);
  });

  it('after the daemon is killed with SIGKILL, by the next daemon, from state/children.json', async () => {
    const pid = await startTree();
    const record = path.join(home, 'state', 'children.json');
    // Recorded as it is seen (the tree is looked at every 2 s), before anything happens to its parent.
    await expect
      .poll(() => (JSON.parse(fs.readFileSync(record, 'utf8')) as Array<{ descendants?: Array<{ pid: number }> }>).flatMap((e) => e.descendants ?? []).map((d) => d.pid), { timeout: 15_000 })
      .toContain(pid);
    await client!.close().catch(() => undefined);
    client = undefined;
    await daemon!.stop('SIGKILL');
    daemon = undefined;
    // The server exits at the end of its stdin; the grandchild, in a session of its own, stays.
    expect(isAlive(pid)).toBe(true);
    daemon = await startDaemonProcess(home);
    await gone(pid);
    const log = fs.readFileSync(path.join(home, 'logs', 'blitz.log'), 'utf8');
    expect(log).toContain('ended MCP server processes a killed daemon left running');
  });
});
