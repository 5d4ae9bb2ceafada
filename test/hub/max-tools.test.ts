import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

const EVERYTHING = path.join(path.dirname(createRequire(path.join(import.meta.dirname, '..', '..', 'packages', 'core', 'package.json')).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

// Issue 25.8: a client's max_tools is a limit searches cannot grow its tools/list past.
let home: string;
let workspace: string;
let daemon: RunningDaemon;
const clients: Client[] = [];

beforeAll(async () => {
  home = tempDir('blitz-max-tools-');
  workspace = tempDir('blitz-max-tools-ws-');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[hub]\nlist_wait_ms = 60000\n\n[hub.clients."adv"]\nmax_tools = 5\n\n` +
      `[[mcp.servers]]\nname = "everything"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([EVERYTHING, 'stdio'])}\nsandbox = false\nauto_approve = true\n`,
  );
  daemon = await startDaemonProcess(home);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of [home, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('[hub.clients."adv"] max_tools = 5 (issue 25.8)', () => {
  it('fourteen searches never grow the tools/list past 5; every tool found is callable through call_tool', async () => {
    const c = await connectHub(daemon.state, { workspace, clientName: 'adv' });
    clients.push(c);
    const names = async () => (await c.listTools()).tools.map((t) => t.name);
    // Room for one of the server's tools beside the hub's four: its first, in server order (issue 26.7).
    const first = await names();
    expect(first.slice(0, 4)).toEqual(['list_mcp_resources', 'read_mcp_resource', 'search_tools', 'call_tool']);
    expect(first).toHaveLength(5);
    const queries = ['echo', 'sum', 'env', 'image', 'long running', 'annotated', 'resource', 'structured', 'elicit', 'zip', 'sampling', 'roots', 'logging', 'links'];
    const found = new Set<string>();
    for (const query of queries) {
      const result = await c.callTool({ name: 'search_tools', arguments: { query, limit: 20 } });
      for (const t of (result.structuredContent as { tools: Array<{ name: string }> }).tools) found.add(t.name);
      expect((await names()).length).toBeLessThanOrEqual(5);
    }
    expect(found.size).toBeGreaterThan(5);
    // The list holds one found tool (the hub's four take the rest); others are called through call_tool.
    const listed = await names();
    expect(listed).toHaveLength(5);
    const unlisted = ['echo', 'get-sum'].find((n) => !listed.includes(n))!;
    const args = unlisted === 'echo' ? { message: 'hi there' } : { a: 2, b: 3 };
    expect(textOf(await c.callTool({ name: 'call_tool', arguments: { name: unlisted, arguments: args } }))).toContain(unlisted === 'echo' ? 'hi there' : '5');
    expect(await names()).toEqual(listed);
  });
});
