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
const HUB_TOOLS = ['list_mcp_resources', 'read_mcp_resource', 'search_tools', 'call_tool'];
const LIMIT = 8;

// Issue 26.7: past a client's max_tools, deferral is no cliff — the list keeps as many tools as
// the limit has room for, the most used first (counted across sessions and restarts), then in
// server order, and the instructions say how many are listed and how many behind search.
let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;
const clients: Client[] = [];

async function client(): Promise<Client> {
  const c = await connectHub(daemon!.state, { workspace, clientName: 'kept' });
  clients.push(c);
  return c;
}
const names = async (c: Client): Promise<string[]> => (await c.listTools()).tools.map((t) => t.name);
const deferralOf = (c: Client): string | undefined => c.getInstructions()?.split('\n\n').find((p) => p.startsWith('Deferred tools:'));

beforeAll(async () => {
  home = tempDir('blitz-kept-');
  workspace = tempDir('blitz-kept-ws-');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[hub]\nlist_wait_ms = 60000\n\n[hub.clients."kept"]\nmax_tools = ${LIMIT}\n\n` +
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

describe(`[hub.clients."kept"] max_tools = ${LIMIT} (issue 26.7)`, () => {
  it('lists as many tools as fit, first in server order; a tool called most is listed in the sessions that follow, also after a restart', async () => {
    const first = await client();
    const listed = await names(first);
    expect(listed.slice(0, 4)).toEqual(HUB_TOOLS);
    expect(listed).toHaveLength(LIMIT);
    const all = (await first.callTool({ name: 'search_tools', arguments: { query: 'sum', limit: 20 } })).structuredContent as { tools: Array<{ name: string }> };
    expect(all.tools.map((t) => t.name)).toContain('get-sum');
    const told = /^Deferred tools: 4 of the (\d+) tools of these MCP servers are in the tool list; (\d+) more are deferred \(this hub lists at most 8 tools to this client, the most used first, then in server order\)\. Use search_tools/.exec(deferralOf(first) ?? '');
    expect(told, deferralOf(first)).not.toBeNull();
    expect(Number(told![2])).toBe(Number(told![1]) - 4);

    // A tool the list does not hold, called through call_tool more than any other.
    const later = await client();
    const unlisted = (await names(later)).includes('get-sum') ? 'get-env' : 'get-sum';
    expect(await names(later)).not.toContain(unlisted);
    for (let i = 0; i < 3; i++) {
      const args = unlisted === 'get-sum' ? { a: 2, b: 3 } : {};
      expect(textOf(await later.callTool({ name: 'call_tool', arguments: { name: unlisted, arguments: args } }))).not.toBe('');
    }
    // The session ranked its tools when it began: its list does not shift under it.
    expect(await names(later)).not.toContain(unlisted);
    const next = await client();
    expect(await names(next)).toContain(unlisted);
    expect(await names(next)).toHaveLength(LIMIT);

    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
    await daemon!.stop();
    daemon = await startDaemonProcess(home);
    expect(JSON.parse(fs.readFileSync(path.join(home, 'state', 'tool-use.json'), 'utf8'))).toEqual({ tools: { everything: expect.objectContaining({ [unlisted]: 3 }) } });
    expect(await names(await client())).toContain(unlisted);
  }, 120_000);
});
