import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { fixturePath } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf, type HubClientOptions } from '../support/hub-client.js';
import { largeCatalogSettings, QUERY_SET, type CatalogQuery } from '../fixtures/large-catalog/catalog.mjs';

// Issue 16 on a large real catalog: 17 published MCP servers (test devDependencies, dummy
// credentials, no network) listed through one daemon, started once for this file.
let home: string;
let workspace: string;
let files: string;
let daemon: RunningDaemon;
let settings: string;
const clients: Client[] = [];

/** Servers offered to agent "mid" too: 112 tools, between Windsurf's cap (100) and VS Code's (128). */
const MID = ['github', 'playwright', 'chrome', 'filesystem', 'slack', 'maps'];
const HUB_TOOLS = ['list_mcp_resources', 'read_mcp_resource', 'search_tools', 'call_tool'];

async function client(opts: Partial<HubClientOptions> = {}): Promise<Client> {
  const c = await connectHub(daemon.state, { workspace, ...opts });
  clients.push(c);
  return c;
}

const names = async (c: Client): Promise<string[]> => (await c.listTools()).tools.map((t) => t.name);
/** A list past a limit of 100: the hub's four tools first, then as many of the servers' as fit (issue 26.7). */
const deferringList = (listed: readonly string[]) => ({ hub: listed.slice(0, 4), size: listed.length });

interface Found {
  name: string;
  server: string;
  description?: string;
  parameters: string;
  inputSchema?: unknown;
}
async function search(c: Client, query: string, limit?: number): Promise<Found[]> {
  const result = await c.callTool({ name: 'search_tools', arguments: { query, ...(limit === undefined ? {} : { limit }) } });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { tools: Found[] }).tools;
}

beforeAll(async () => {
  home = tempDir('blitz-large-');
  workspace = tempDir('blitz-large-ws-');
  files = fs.realpathSync(tempDir('blitz-large-files-'));
  const mid = `agents = ${JSON.stringify(['main', 'mid'])}`;
  // Serves the env-dump fixture (one tool, env) while the marker exists, fails to start after.
  const flaky = path.join(files, 'flaky.mjs');
  fs.writeFileSync(path.join(files, 'flaky-works'), '');
  fs.writeFileSync(
    flaky,
    `import fs from 'node:fs';\nif (!fs.existsSync(${JSON.stringify(path.join(files, 'flaky-works'))})) process.exit(1);\nawait import(${JSON.stringify(pathToFileURL(fixturePath('env-dump')).href)});\n`,
  );
  // list_wait_ms: the first listing waits for every server, so the catalog is whole in every test.
  settings =
    `[daemon]\nport = 0\n\n[hub]\nlist_wait_ms = 120000\n\n` +
    largeCatalogSettings(files, {
      ...Object.fromEntries(MID.map((s) => [s, mid])),
      thinking: 'exposure = "direct"',
      everything: 'tool_exposure = { echo = "direct", "toggle-*" = "hidden" }',
      brave: 'exposure = "hidden"\ntool_exposure = { brave_local_search = "deferred" }',
    }) +
    `\n[[mcp.servers]]\nname = "flaky"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([flaky])}\nsandbox = false\nprefix = "flaky"\n`;
  writeSettings(home, settings);
  daemon = await startDaemonProcess(home);
  // The first listing starts all 17 servers; later sessions find them running.
  await names(await client());
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of [home, workspace, files]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a large real catalog through the hub (issue 16)', () => {
  it('has several hundred tools; past the limit the tools marked direct and as many more as fit are listed, with search_tools and call_tool, and the instructions say so', async () => {
    const [ws] = await daemon.client.listWorkspaces();
    const servers = await daemon.client.listWorkspaceServers(ws!.id);
    expect(servers.filter((s) => s.state !== 'connected')).toEqual([]);
    expect(servers.reduce((n, s) => n + s.tools.length, 0)).toBeGreaterThan(300);

    const c = await client();
    // No cliff (issue 26.7): 96 of them, the direct ones included, beside the hub's four.
    const listed = await names(c);
    expect(deferringList(listed)).toEqual({ hub: HUB_TOOLS, size: 100 });
    expect(listed).toEqual(expect.arrayContaining(['echo', 'sequentialthinking']));
    const told =
      /\n\nDeferred tools: 96 of the (\d+) tools of these MCP servers are in the tool list; (\d+) more are deferred \(this hub lists at most 100 tools to this client, the most used first, then in server order\)\. Use search_tools/.exec(
        c.getInstructions() ?? '',
      );
    expect(told, c.getInstructions()).not.toBeNull();
    expect(Number(told![1])).toBeGreaterThan(300);
    expect(Number(told![2])).toBe(Number(told![1]) - 96);
  });

  it('auto defers by the client: a client name with a built-in cap of 128 gets all 112 tools of agent mid, Windsurf (100) and others (100) get them deferred', async () => {
    const vs = await client({ agent: 'mid', clientName: 'Visual Studio Code' });
    expect(vs.getInstructions()).toContain(
      "\n\nDeferred tools: none now; all 112 tools of these MCP servers are in the tool list. Should they pass 128, this client's limit,",
    );
    const vscode = await names(vs);
    expect(vscode.slice(0, 2)).toEqual(HUB_TOOLS.slice(0, 2));
    expect(vscode).not.toContain('search_tools');
    expect(vscode).toHaveLength(2 + 112);
    for (const [clientName, limit] of [
      ['windsurf-client', 100],
      ['hub-test', 100],
    ] as const) {
      const c = await client({ agent: 'mid', clientName });
      expect(deferringList(await names(c))).toEqual({ hub: HUB_TOOLS, size: limit });
      expect(c.getInstructions()).toContain(
        `\n\nDeferred tools: 96 of the 112 tools of these MCP servers are in the tool list; 16 more are deferred (this hub lists at most ${limit} tools to this client, the most used first, then in server order).`,
      );
    }
  });

  it("search → list_changed → call: the match joins the session's list at once, and a call works", async () => {
    const c = await client();
    const changed = new Promise<void>((resolve) => c.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    const [best] = await search(c, 'rename draft.md');
    // A summary (issue 30): what it does and its parameters, not its whole schema.
    expect(best).toEqual({
      name: 'move_file',
      server: 'filesystem',
      description: expect.stringMatching(/^Move or rename files and directories\./),
      parameters: 'source: string, destination: string',
    });
    await changed;
    expect(await names(c)).toContain('move_file');
    // Only this session's list grew.
    expect(await names(await client())).not.toContain('move_file');

    fs.writeFileSync(path.join(workspace, 'draft.md'), 'hello');
    const moved = await c.callTool({
      name: 'move_file',
      arguments: { source: path.join(workspace, 'draft.md'), destination: path.join(workspace, 'final.md') },
    });
    expect(moved.isError).toBeFalsy();
    expect(fs.readFileSync(path.join(workspace, 'final.md'), 'utf8')).toBe('hello');
  });

  it('call_tool calls a deferred tool as tools/call does; one the session may not see is refused as if it did not exist', async () => {
    const main = await client();
    expect(textOf(await main.callTool({ name: 'call_tool', arguments: { name: 'get-sum', arguments: { a: 2, b: 3 } } }))).toContain('5');
    // Hidden: a server's exposure, and a pattern of another.
    for (const name of ['brave_web_search', 'toggle-simulated-logging']) {
      await expect(main.callTool({ name: 'call_tool', arguments: { name } })).rejects.toThrow(`unknown tool ${name}`);
    }
    const mid = await client({ agent: 'mid' });
    await expect(mid.callTool({ name: 'gitlab__whoami' })).rejects.toThrow('unknown tool gitlab__whoami');
    await expect(mid.callTool({ name: 'call_tool', arguments: { name: 'gitlab__whoami' } })).rejects.toThrow('unknown tool gitlab__whoami');
  });

  it("search returns only what the session may call: its agent's servers, no hidden tool, and an override's tool of a hidden server", async () => {
    const mid = await client({ agent: 'mid' });
    const found = await search(mid, 'merge request pipelines', 20);
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((t) => t.server))).toEqual(new Set(found.map((t) => t.server).filter((s) => MID.includes(s))));
    const main = await client();
    const brave = await search(main, 'brave search', 20);
    expect(brave.map((t) => t.name)).toContain('brave_local_search');
    expect(brave.map((t) => t.name)).not.toContain('brave_web_search');
  });

  it('read-only mode: no server tool is listed, found or called', async () => {
    const c = await client({ mode: 'read-only' });
    expect(await names(c)).toEqual(HUB_TOOLS.slice(0, 2));
    expect(await search(c, 'rename draft.md')).toEqual([]);
    expect(textOf(await c.callTool({ name: 'call_tool', arguments: { name: 'get-sum', arguments: { a: 1, b: 1 } } }))).toContain(
      'read-only mode',
    );
  });

  describe('ranking on the query set (test/fixtures/large-catalog/queries.json)', () => {
    async function recallAt5(queries: CatalogQuery[]): Promise<{ recall: number; misses: string[] }> {
      const c = await client();
      const misses: string[] = [];
      for (const q of queries) {
        const top = (await search(c, q.query, 5)).map((t) => t.name);
        if (!top.some((n) => q.expect.includes(n))) misses.push(`${q.query} → ${top.join(', ')}`);
      }
      return { recall: 1 - misses.length / queries.length, misses };
    }

    it('finds the tool of at least 90 % of the queries in its first five', async () => {
      const { recall, misses } = await recallAt5(QUERY_SET.queries);
      expect(recall, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
    });

    it('a task naming a file finds the file tool: "rename draft.md" → move_file first', async () => {
      expect((await search(await client(), 'rename draft.md', 5))[0]?.name).toBe('move_file');
    });
  });

  it('[hub] deferred changed in settings.toml reaches a connected client as list_changed, with the list it now gets', async () => {
    const c = await client({ agent: 'mid' });
    expect(deferringList(await names(c))).toEqual({ hub: HUB_TOOLS, size: 100 });
    const changed = new Promise<void>((resolve) => c.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    writeSettings(home, settings.replace('[hub]\n', '[hub]\ndeferred = "never"\n'));
    await changed;
    const listed = await names(c);
    expect(listed).toHaveLength(2 + 112);
    expect(listed).not.toContain('search_tools');
    writeSettings(home, settings);
    await expect.poll(async () => deferringList(await names(c)), { timeout: 20_000 }).toEqual({ hub: HUB_TOOLS, size: 100 });
  });

  it("a disabled server's tools leave search at once; the tools a search activated leave the session with it and are deferred again when it is back", async () => {
    const c = await client();
    let changes = 0;
    c.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    const activated = (await search(c, 'crawl an entire website')).filter((t) => t.server === 'firecrawl').map((t) => t.name);
    expect(activated.length).toBeGreaterThan(0);
    expect(await names(c)).toEqual(expect.arrayContaining(activated));
    // The search's own list_changed may come after its answer: counted, the next is the switch's.
    await expect.poll(() => changes, { timeout: 20_000 }).toBe(1);
    await daemon.client.setServerEnabled('firecrawl', false);
    await expect
      .poll(async () => (await search(c, 'crawl an entire website')).map((t) => t.server), { timeout: 20_000 })
      .not.toContain('firecrawl');
    await expect.poll(() => changes, { timeout: 20_000 }).toBeGreaterThan(1);
    const listedOff = await names(c);
    expect(activated.filter((n) => listedOff.includes(n))).toEqual([]);
    // Back again, its tools are deferred as before: the activation went with them.
    await daemon.client.setServerEnabled('firecrawl', true);
    // Seen by another session's search: one of this session would activate them again.
    const other = await client();
    await expect
      .poll(async () => (await search(other, 'crawl an entire website')).map((t) => t.server), { timeout: 60_000 })
      .toContain('firecrawl');
    const listed = await names(c);
    expect(activated.filter((n) => listed.includes(n))).toEqual([]);
  });

  it("a paused server's tools are absent from search, and call_tool refuses one as tools/call does (MCP-32)", async () => {
    const c = await client();
    expect((await search(c, 'flaky__env'))[0]?.name).toBe('flaky__env');
    const [ws] = await daemon.client.listWorkspaces();
    fs.rmSync(path.join(files, 'flaky-works'));
    await daemon.client.restartServer(ws!.id, 'flaky');
    // Two failed starts in a row pause it (the breaker's threshold).
    await daemon.client.listWorkspaceServers(ws!.id, { connect: true });
    await daemon.client.listWorkspaceServers(ws!.id, { connect: true });
    expect((await daemon.client.listWorkspaceServers(ws!.id)).find((s) => s.name === 'flaky')?.state).toBe('paused');
    expect((await search(c, 'flaky__env', 20)).map((t) => t.server)).not.toContain('flaky');
    const direct = await c.callTool({ name: 'flaky__env' });
    expect(direct.isError).toBe(true);
    expect(await c.callTool({ name: 'call_tool', arguments: { name: 'flaky__env' } })).toEqual(direct);
  });
});
