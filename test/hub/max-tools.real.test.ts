import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

const EVERYTHING = path.join(
  path.dirname(
    createRequire(path.join(import.meta.dirname, '..', '..', 'packages', 'core', 'package.json')).resolve(
      '@modelcontextprotocol/server-everything/package.json',
    ),
  ),
  'dist',
  'index.js',
);

// Issue 25.8: a client's max_tools is a limit searches cannot grow its tools/list past.
// Issue 26.7: past it deferral is no cliff — the list keeps as many tools as the limit has room
// for, the most used first (counted across sessions and restarts), then in server order.
let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;
const clients: Client[] = [];
const HUB_TOOLS = ['list_mcp_resources', 'read_mcp_resource', 'search_tools', 'call_tool'];
const KEPT_LIMIT = 8;

async function client(clientName: string): Promise<Client> {
  const c = await connectHub(daemon!.state, { workspace, clientName });
  clients.push(c);
  return c;
}
const names = async (c: Client): Promise<string[]> => (await c.listTools()).tools.map((t) => t.name);
const deferralOf = (c: Client): string | undefined =>
  c
    .getInstructions()
    ?.split('\n\n')
    .find((p) => p.startsWith('Deferred tools:'));

beforeAll(async () => {
  home = tempDir('blitz-max-tools-');
  workspace = tempDir('blitz-max-tools-ws-');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[hub]\nlist_wait_ms = 60000\n\n[hub.clients."adv"]\nmax_tools = 5\n\n[hub.clients."kept"]\nmax_tools = ${KEPT_LIMIT}\n\n` +
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
    const c = await connectHub(daemon!.state, { workspace, clientName: 'adv' });
    clients.push(c);
    const names = async () => (await c.listTools()).tools.map((t) => t.name);
    // Room for one of the server's tools beside the hub's four: its first, in server order (issue 26.7).
    const first = await names();
    expect(first.slice(0, 4)).toEqual(['list_mcp_resources', 'read_mcp_resource', 'search_tools', 'call_tool']);
    expect(first).toHaveLength(5);
    const queries = [
      'echo',
      'sum',
      'env',
      'image',
      'long running',
      'annotated',
      'resource',
      'structured',
      'elicit',
      'zip',
      'sampling',
      'roots',
      'logging',
      'links',
    ];
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
    expect(textOf(await c.callTool({ name: 'call_tool', arguments: { name: unlisted, arguments: args } }))).toContain(
      unlisted === 'echo' ? 'hi there' : '5',
    );
    expect(await names()).toEqual(listed);
  });
});

describe(`[hub.clients."kept"] max_tools = ${KEPT_LIMIT} (issue 26.7)`, () => {
  it('lists as many tools as fit, first in server order; a tool called most is listed in the sessions that follow, also after a restart', async () => {
    const first = await client('kept');
    const listed = await names(first);
    expect(listed.slice(0, 4)).toEqual(HUB_TOOLS);
    expect(listed).toHaveLength(KEPT_LIMIT);
    const all = (await first.callTool({ name: 'search_tools', arguments: { query: 'sum', limit: 20 } })).structuredContent as {
      tools: Array<{ name: string }>;
    };
    expect(all.tools.map((t) => t.name)).toContain('get-sum');
    const told =
      /^Deferred tools: 4 of the (\d+) tools of these MCP servers are in the tool list; (\d+) more are deferred \(this hub lists at most 8 tools to this client, the most used first, then in server order\)\. Use search_tools/.exec(
        deferralOf(first) ?? '',
      );
    expect(told, deferralOf(first)).not.toBeNull();
    expect(Number(told![2])).toBe(Number(told![1]) - 4);

    // A tool the list does not hold, called through call_tool more than any other.
    const later = await client('kept');
    const callable: Record<string, Record<string, unknown>> = {
      'get-sum': { a: 2, b: 3 },
      'get-env': {},
      echo: { message: 'hi' },
      'get-tiny-image': {},
    };
    const shown = await names(later);
    const unlisted = Object.keys(callable).find((n) => !shown.includes(n))!;
    expect(unlisted).toBeDefined();
    for (let i = 0; i < 3; i++) {
      expect(
        (await later.callTool({ name: 'call_tool', arguments: { name: unlisted, arguments: callable[unlisted] } })).isError,
      ).toBeFalsy();
    }
    // The session ranked its tools when it began: its list does not shift under it.
    expect(await names(later)).not.toContain(unlisted);
    const next = await client('kept');
    expect(await names(next)).toContain(unlisted);
    expect(await names(next)).toHaveLength(KEPT_LIMIT);

    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
    await daemon!.stop();
    daemon = await startDaemonProcess(home);
    expect(JSON.parse(fs.readFileSync(path.join(home, 'state', 'tool-use.json'), 'utf8'))).toEqual({
      tools: { everything: expect.objectContaining({ [unlisted]: 3 }) },
    });
    expect(await names(await client('kept'))).toContain(unlisted);
  }, 120_000);
});
