import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans, isAlive } from '../../packages/core/src/testing/no-orphans.js';
import { REAL_WAIT } from '../../packages/core/src/testing/real-wait.js';
import { BLITZ_BIN, runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

// Idle reaping end to end (issue 32.1), through both hub paths: a real daemon, real servers, and
// `[hub] idle_timeout_seconds = 1`, waited for with expect.poll. `quiet` (env-dump) is used once
// and left alone; `live` (the protocol fixture) holds a session's resource subscription.
let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;
const clients: Client[] = [];

function entry(name: string, file: Parameters<typeof fixtureCommand>[0]): string {
  const { command, args } = fixtureCommand(file);
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nprefix = "${name}"\npin = false\nauto_approve = true\n`;
}

beforeEach(() => {
  home = tempDir('blitz-reap-');
  workspace = tempDir('blitz-reap-ws-');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await daemon?.stop();
  daemon = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

/** The `blitz connect` stdio bridge, as a client configured with it runs it. */
async function viaConnect(): Promise<Client> {
  const client = new Client({ name: 'reap-test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BLITZ_BIN, 'connect', '--workspace', workspace],
      env: { PATH: process.env.PATH!, HOME: home, BLITZ_HOME: home },
      stderr: 'pipe',
    }),
  );
  return client;
}

const PATHS = {
  '/mcp streamable HTTP': () => connectHub(daemon!.state, { workspace, via: 'http' }),
  'blitz connect (stdio)': viaConnect,
};

describe.each(Object.entries(PATHS))('idle reaping through %s', (_path, connect) => {
  it('stops an unused server, keeps its tools listed, starts it again at the next call, and never stops a subscribed one', async () => {
    writeSettings(
      home,
      `[daemon]\nport = 0\n\n[hub]\nidle_timeout_seconds = 1\nlist_wait_ms = 120000\n\n${entry('quiet', 'env-dump')}${entry('live', 'protocol')}`,
    );
    daemon = await startDaemonProcess(home);
    const client = await connect();
    clients.push(client);
    const names = async () => (await client.listTools()).tools.map((t) => t.name).sort();
    const listed = await names();
    expect(listed).toContain('quiet__env');
    expect(listed).toContain('live__describe');
    await client.subscribeResource({ uri: 'fixture://doc' });
    const server = async (name: string) => (await daemon!.client.status()).servers.find((s) => s.name === name)!;

    expect(textOf(await client.callTool({ name: 'quiet__env', arguments: {} }))).toContain('PATH');
    const firstPid = (await server('quiet')).copies?.[0]?.pid;
    expect(firstPid).toEqual(expect.any(Number));

    // Used after `live` was last used: by the time it is stopped, `live` would have been too, but for its subscription.
    await expect.poll(async () => (await server('quiet')).reaped, REAL_WAIT).toBe(true);
    expect(await server('quiet')).toMatchObject({ state: 'idle', reaped: true, copies: [] });
    await expect.poll(() => isAlive(firstPid!), REAL_WAIT).toBe(false);
    expect(await server('live')).toMatchObject({ state: 'connected' });
    const list = await runBlitz(['mcp', 'list'], { home });
    expect(list.stdout).toMatch(/^quiet +stdio +.*env-dump\.mjs +0 +idle \(stopped to save memory\)$/m);

    // Its tools never leave the client's list, and listing them does not start it.
    expect(await names()).toEqual(listed);
    expect(await server('quiet')).toMatchObject({ state: 'idle', reaped: true });

    // The next call starts it again and succeeds; the stop was no failure.
    expect(textOf(await client.callTool({ name: 'quiet__env', arguments: {} }))).toContain('PATH');
    const again = await server('quiet');
    expect(again).toMatchObject({ state: 'connected' });
    expect(again.reaped).toBeUndefined();
    expect(again.error).toBeUndefined();
    expect(again.copies?.[0]?.pid).not.toBe(firstPid);
    const status = await daemon.client.status();
    expect(status.notices.filter((n) => n.server === 'quiet')).toEqual([]);
    expect(await names()).toEqual(listed);

    // Let go of the subscription: now `live` is stopped too.
    await client.unsubscribeResource({ uri: 'fixture://doc' });
    await expect.poll(async () => (await server('live')).reaped, REAL_WAIT).toBe(true);
    expect(await names()).toEqual(listed);
  });
});
