import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { createContainment, probeBubblewrap } from '@blitz/core';
import { assertNoOrphans, canListProcesses, helpersMarked, isAlive } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub } from '../support/hub-client.js';

let home: string;
let workspace: string;
let pidFile: string;
let daemon: RunningDaemon | undefined;
let client: Client | undefined;
let grandchildren: number[] = [];

/** Where the daemon's PATH has neither bwrap nor unshare: no pid namespace, the tree scan alone. */
let bare: string;

/** The daemon's one server `tree`: spawn-grandchild with these arguments. */
function settingsFor(fixtureArgs: string[], sandbox = false): void {
  const { command, args } = fixtureCommand('spawn-grandchild', fixtureArgs);
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "tree"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = ${sandbox}\nauto_approve = true\nenv = { GRANDCHILD_PID_FILE = ${JSON.stringify(pidFile)} }\n`,
  );
}

beforeEach(() => {
  home = tempDir('blitz-tree-');
  workspace = tempDir('blitz-tree-ws-');
  bare = tempDir('blitz-tree-path-');
  // In the workspace: a sandboxed server cannot see BLITZ_HOME.
  pidFile = path.join(workspace, 'grandchild.pid');
  settingsFor(['--setsid']);
});

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  if (daemon) await daemon.stop();
  daemon = undefined;
  // Reparented to init it is no descendant of ours: a failed test must not leave it running.
  const left = grandchildren.filter(isAlive);
  for (const pid of left) process.kill(pid, 'SIGKILL');
  grandchildren = [];
  await assertNoOrphans();
  for (const dir of [home, workspace, bare]) fs.rmSync(dir, { recursive: true, force: true });
  expect(left, 'setsid grandchildren outlived the test').toEqual([]);
});

/** Starts the daemon and the server; returns the grandchild that left the server's session. */
async function startTree(env: NodeJS.ProcessEnv = {}): Promise<number> {
  daemon = await startDaemonProcess(home, env);
  client = await connectHub(daemon.state, { workspace });
  await client.listTools();
  await expect.poll(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '', { timeout: 10_000 }).toBe(true);
  const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
  grandchildren.push(grandchild);
  expect(isAlive(grandchild)).toBe(true);
  return grandchild;
}

/** Waits for the server now running to have orphaned its helper (`--orphan`); returns the helper's pid outside. */
async function nextOrphan(mark: string): Promise<number> {
  await expect.poll(() => helpersMarked(mark).filter((pid) => !grandchildren.includes(pid)), { timeout: 15_000 }).toHaveLength(1);
  const pid = helpersMarked(mark).find((p) => !grandchildren.includes(p))!;
  grandchildren.push(pid);
  return pid;
}

async function gone(pid: number): Promise<void> {
  await expect.poll(() => isAlive(pid), { timeout: 15_000 }).toBe(false);
}

// Where there is no pid namespace (the daemon's PATH has neither bwrap nor unshare), the tree scan finds it.
describe.skipIf(!canListProcesses)('a stdio server’s setsid() grandchild (sandbox = false, no pid namespace) is ended with it', () => {
  it('when the server is disabled', async () => {
    const pid = await startTree({ PATH: bare });
    expect((await runBlitz(['mcp', 'disable', 'tree'], { home })).code).toBe(0);
    await gone(pid);
  });

  it('when the daemon is stopped with SIGTERM', async () => {
    const pid = await startTree({ PATH: bare });
    expect(await daemon!.stop('SIGTERM')).toBe(0);
    daemon = undefined;
    await gone(pid);
  });

  it('after the daemon is killed with SIGKILL, by the next daemon, from state/children.json (no pid namespace)', async () => {
    // Without a pid namespace the grandchild outlives its server: only the record ends it.
    const pid = await startTree({ PATH: bare });
    const record = path.join(home, 'state', 'children.json');
    // Recorded as it is seen (the tree is looked at every 2 s), before anything happens to its parent.
    await expect
      .poll(
        () =>
          (JSON.parse(fs.readFileSync(record, 'utf8')) as Array<{ descendants?: Array<{ pid: number }> }>)
            .flatMap((e) => e.descendants ?? [])
            .map((d) => d.pid),
        { timeout: 15_000 },
      )
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

const contained = process.platform === 'linux' && canListProcesses && createContainment().kind() !== 'scan';
const sandboxed = process.platform === 'linux' && probeBubblewrap().ok;

describe.skipIf(!contained)('a helper orphaned by `setsid --fork` before any scan can see it ends with its server', () => {
  /** Starts the daemon with a server that orphans a helper each time it starts; edits, restarts and stops it. */
  async function restartsAndStop(sandbox: boolean): Promise<void> {
    const mark = `blitz-orphan-${randomUUID()}`;
    settingsFor(['--orphan', mark], sandbox);
    daemon = await startDaemonProcess(home);
    client = await connectHub(daemon.state, { workspace });
    await client.listTools();
    const first = await nextOrphan(mark);
    const ws = ['--workspace', workspace];
    expect((await runBlitz(['mcp', 'restart', 'tree', ...ws], { home })).code).toBe(0);
    await gone(first);
    await client.listTools();
    const second = await nextOrphan(mark);
    // An edit restarts it too.
    settingsFor(['--orphan', mark, '--edited'], sandbox);
    await gone(second);
    await client.listTools();
    const third = await nextOrphan(mark);
    expect(await daemon.stop('SIGTERM')).toBe(0);
    daemon = undefined;
    await gone(third);
    expect(helpersMarked(mark)).toEqual([]);
  }

  it('sandbox = false: in the pid namespace the daemon puts it in', async () => {
    await restartsAndStop(false);
  });

  it.skipIf(!sandboxed)('sandboxed: in the sandbox’s pid namespace', async () => {
    await restartsAndStop(true);
  });

  it('after the daemon is killed with SIGKILL: the server ends at the end of its stdin, and its namespace with it', async () => {
    const mark = `blitz-orphan-${randomUUID()}`;
    settingsFor(['--orphan', mark]);
    daemon = await startDaemonProcess(home);
    client = await connectHub(daemon.state, { workspace });
    await client.listTools();
    const helper = await nextOrphan(mark);
    await client.close().catch(() => undefined);
    client = undefined;
    await daemon.stop('SIGKILL');
    daemon = undefined;
    await gone(helper);
  });
});
