/**
 * A server's `roots` setting, with the real server-filesystem behind the hub: it serves the
 * folders of its arguments only when the client (Blitz) does not offer roots; otherwise the
 * roots replace them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

const FILESYSTEM = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

let home: string;
let workspace: string;
let own: string;
let daemon: RunningDaemon | undefined;
let client: Client | undefined;

beforeEach(() => {
  home = tempDir('blitz-roots-');
  workspace = tempDir('blitz-roots-ws-');
  own = tempDir('blitz-roots-own-');
  fs.writeFileSync(path.join(own, 'note.txt'), 'kept in its own folder');
  fs.mkdirSync(path.join(home, 'src'));
});

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  if (daemon) await daemon.stop();
  daemon = undefined;
  await assertNoOrphans();
  for (const dir of [home, workspace, own]) fs.rmSync(dir, { recursive: true, force: true });
});

function filesystem(name: string, extra: string): string {
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([FILESYSTEM, own])}\nprefix = "${name}"\nauto_approve = true\nsandbox = false\n${extra}\n`;
}

async function allowed(c: Client, server: string): Promise<string> {
  return textOf(await c.callTool({ name: `${server}__list_allowed_directories`, arguments: {} }));
}

it('roots absent: the workspace; roots = false: the folders of its arguments; a list: those paths, ~ expanded', async () => {
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n${filesystem('ws', '')}${filesystem('mine', 'roots = false')}${filesystem('listed', `roots = ["~/src", ${JSON.stringify(workspace)}]`)}`,
  );
  // The daemon's HOME is the temp home, so "~/src" is home/src.
  daemon = await startDaemonProcess(home);
  client = await connectHub(daemon.state, { workspace });
  await client.listTools();
  // server-filesystem asks for roots after initialize, so its answer may trail the first call.
  await expect.poll(() => allowed(client!, 'ws'), { timeout: 10_000 }).toBe(`Allowed directories:\n${workspace}`);
  await expect
    .poll(() => allowed(client!, 'listed'), { timeout: 10_000 })
    .toBe(`Allowed directories:\n${path.join(home, 'src')}\n${workspace}`);
  expect(await allowed(client, 'mine')).toBe(`Allowed directories:\n${own}`);
  expect(textOf(await client.callTool({ name: 'mine__read_text_file', arguments: { path: path.join(own, 'note.txt') } }))).toBe(
    'kept in its own folder',
  );
  const refused = await client.callTool({ name: 'ws__read_text_file', arguments: { path: path.join(own, 'note.txt') } });
  expect(refused.isError).toBe(true);
});
