import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { GlobalServerStatus, ServerCopy } from '@blitz/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../apps/tray/src/testing/fake-helper.js';
import { fixturePath } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans, isAlive } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN, runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';
import { nodeServer } from '../tray/tray-process.js';

const EVERYTHING = path.join(
  path.dirname(
    createRequire(path.join(import.meta.dirname, '..', '..', 'packages', 'core', 'package.json')).resolve(
      '@modelcontextprotocol/server-everything/package.json',
    ),
  ),
  'dist',
  'index.js',
);

let home: string;
let folderA: string;
let folderB: string;
let daemon: RunningDaemon | undefined;
const clients: Client[] = [];

beforeEach(() => {
  home = tempDir('blitz-share-');
  folderA = tempDir('blitz-share-a-');
  folderB = tempDir('blitz-share-b-');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await daemon?.stop();
  daemon = undefined;
  await assertNoOrphans();
  for (const dir of [home, folderA, folderB]) fs.rmSync(dir, { recursive: true, force: true });
});

/** `blitz connect` started in a folder, as a client configured with no `--workspace` starts it. */
async function connectFrom(folder: string): Promise<Client> {
  const client = new Client({ name: 'share-test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BLITZ_BIN, 'connect'],
      cwd: folder,
      env: { PATH: process.env.PATH!, HOME: home, BLITZ_HOME: home },
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  return client;
}

/** An HTTP client that names no workspace: it gets the user's home. `leave` ends its session as a client that says goodbye does. */
async function connectHttpWithoutWorkspace(): Promise<{ client: Client; leave(): Promise<void> }> {
  const client = new Client({ name: 'share-test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${daemon!.state.port}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${daemon!.state.token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return {
    client,
    async leave() {
      await transport.terminateSession();
      await client.close();
    },
  };
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function copiesOf(name: string): Promise<ServerCopy[]> {
  const server = (await daemon!.client.status()).servers.find((s) => s.name === name) as GlobalServerStatus;
  return server.copies ?? [];
}

describe('share = true', () => {
  it('one process serves every workspace for a shared server, one per workspace otherwise; the shared one ends with the last workspace; mcp list shows the copies', async () => {
    writeSettings(
      home,
      `[daemon]\nport = 0\nworkspace_idle_minutes = 0\n\n${nodeServer('mem', fixturePath('env-dump'), 'share = true\nauto_approve = true\n')}\n${nodeServer('own', fixturePath('resources'), 'prefix = "own"\n')}`,
    );
    daemon = await startDaemonProcess(home);
    // One at a time, so the workspaces open in a known order.
    const a = await connectFrom(folderA);
    expect((await a.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'env', 'own__sized']));
    const b = await connectFrom(folderB);
    expect((await b.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'own__sized']));
    const http = await connectHttpWithoutWorkspace();
    const anywhere = http.client;
    expect((await anywhere.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'own__sized']));
    expect(textOf(await b.callTool({ name: 'echo', arguments: { text: 'from b' } }))).toBe('from b');

    const mem = await copiesOf('mem');
    expect(mem).toEqual([{ workspaces: [folderA, folderB, home], shared: true, state: 'connected', pid: expect.any(Number) }]);
    const own = await copiesOf('own');
    expect(own.map((c) => [c.workspaces, c.shared])).toEqual([
      [[folderA], false],
      [[folderB], false],
      [[home], false],
    ]);
    const pids = [mem[0]!.pid!, ...own.map((c) => c.pid!)];
    expect(new Set(pids).size).toBe(4);
    for (const pid of pids) expect(isAlive(pid)).toBe(true);
    // Each workspace's own view names the same process for the shared server.
    const workspaces = await daemon.client.listWorkspaces();
    for (const w of workspaces) {
      const servers = await daemon.client.listWorkspaceServers(w.id);
      expect(servers.find((s) => s.name === 'mem')).toMatchObject({ pid: mem[0]!.pid, shared: true });
      expect(servers.find((s) => s.name === 'own')).toMatchObject({ shared: false });
    }

    const list = await runBlitz(['mcp', 'list'], { home });
    expect(list.code).toBe(0);
    const lines = list.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME +TRANSPORT +COMMAND OR URL +COPIES +STATUS$/);
    expect(lines[1]).toMatch(/^mem +stdio +.*env-dump\.mjs +1 shared +connected$/);
    expect(lines[2]).toMatch(/^own +stdio +.*resources\.mjs +3 +connected$/);
    expect(lines.slice(3)).toEqual([
      'Running copies:',
      `  mem  pid ${mem[0]!.pid} shared by ${folderA}, ${folderB}, ${home}`,
      `  own  pid ${own[0]!.pid} for ${folderA}`,
      `  own  pid ${own[1]!.pid} for ${folderB}`,
      `  own  pid ${own[2]!.pid} for ${home}`,
      '',
    ]);
    const json = JSON.parse((await runBlitz(['mcp', 'list', '--json'], { home })).stdout) as Array<{ name: string; copies: ServerCopy[] }>;
    expect(json.find((r) => r.name === 'mem')!.copies).toEqual(mem);

    // The first workspace leaves: its own copy ends, the shared one serves the others still.
    await a.close();
    await waitFor(() => !isAlive(own[0]!.pid!), "folder A's own copy to end");
    expect(await copiesOf('mem')).toEqual([{ ...mem[0], workspaces: [folderB, home] }]);
    expect(isAlive(mem[0]!.pid!)).toBe(true);
    expect(textOf(await anywhere.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');

    await b.close();
    await until(async () => (await copiesOf('own')).length === 1, "folder B's own copy to end");
    expect(isAlive(mem[0]!.pid!)).toBe(true);
    // The last workspace leaves: the shared process goes with it.
    await http.leave();
    await waitFor(() => !isAlive(mem[0]!.pid!), 'the shared process to end');
    expect(await copiesOf('mem')).toEqual([]);
    expect(await copiesOf('own')).toEqual([]);
  });

  it("a shared server's roots are the home; its requests go to the client calling it, whatever its workspace; its failures are heard once, by every workspace using it", async () => {
    const everything = `[[mcp.servers]]\nname = "every"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([EVERYTHING, 'stdio'])}\nsandbox = false\nshare = true\nauto_approve = true\nprefix = "e"\n`;
    writeSettings(
      home,
      `[daemon]\nport = 0\n\n${everything}\n${nodeServer('broken', fixturePath('crash-after'), 'share = true\nauto_approve = true\n')}`,
    );
    daemon = await startDaemonProcess(home);
    const heard = { a: [] as string[], b: [] as string[] };
    const hear = (into: string[]) => (c: Client) =>
      c.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => void into.push(String(n.params.data)));
    const asking = await connectHub(daemon.state, {
      workspace: folderA,
      via: 'lines',
      elicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
      prepare: hear(heard.a),
    });
    clients.push(asking);
    const mute = await connectHub(daemon.state, { workspace: folderB, via: 'http', prepare: hear(heard.b) });
    clients.push(mute);
    await asking.listTools();
    await mute.listTools();
    expect((await copiesOf('every')).map((c) => c.workspaces)).toEqual([[folderA, folderB]]);

    const roots = textOf(await mute.callTool({ name: 'e__get-roots-list', arguments: {} }));
    expect(roots).toContain(pathToFileURL(home).href);
    expect(roots).not.toContain(pathToFileURL(folderB).href);
    expect(JSON.stringify(await asking.callTool({ name: 'e__trigger-elicitation-request', arguments: {} }))).toContain('Ada');
    expect(JSON.stringify(await mute.callTool({ name: 'e__trigger-elicitation-request', arguments: {} }))).toContain('decline');

    // Two calls, one from each workspace, each crash the server (crash-after 0): failed, recovered at the
    // restart the second call makes, failed — once each, heard by both workspaces. (A start that fails is no
    // good here: a session starts its servers before it is answered, and a listing does not retry a server
    // whose start just failed, so the second workspace would never use it while it fails.)
    expect(await asking.callTool({ name: 'echo', arguments: { text: 'a' } })).toMatchObject({ isError: true });
    expect(await mute.callTool({ name: 'echo', arguments: { text: 'b' } })).toMatchObject({ isError: true });
    const notices = (await daemon.client.status()).notices.filter((n) => n.server === 'broken');
    expect(notices.map((n) => n.kind)).toEqual(['failed', 'recovered', 'failed']);
    await expect
      .poll(() => heard.a.filter((m) => m.startsWith('MCP server broken')), { timeout: 5_000 })
      .toEqual(notices.map((n) => n.message));
    await expect
      .poll(() => heard.b.filter((m) => m.startsWith('MCP server broken')), { timeout: 5_000 })
      .toEqual(notices.map((n) => n.message));
  });
});
