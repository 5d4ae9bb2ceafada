import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand, type FixtureName } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf, type HubClientOptions } from '../support/hub-client.js';

// What a session is told of its deferred tools (issue 16): its instructions at initialize say
// whether anything is deferred, how many tools are listed and deferred, and how to reach them;
// when that changes mid-session (a catalog grown past the limit, a settings edit) the client
// hears list_changed and a notice. And a trusted project's .mcp.json may set exposure.
let home: string;
let workspace: string;
let project: string;
let daemon: RunningDaemon;
let settings: string;
const clients: Client[] = [];

const HUB_TOOLS = ['list_mcp_resources', 'read_mcp_resource', 'search_tools', 'call_tool'];
/** The limit of the client named grow-test: the hub's 4 tools and 3 of the server's fit, 4 do not. */
const GROW_LIMIT = 7;
/** The limit of the client named small-test: the server's 2 tools alone pass it. */
const SMALL_LIMIT = 5;

function entry(name: string, file: FixtureName, extra: string): string {
  const { command, args } = fixtureCommand(file);
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\n${extra}\n`;
}

/** A client that records the tool list changes and notices it hears. */
async function client(opts: Partial<HubClientOptions> = {}) {
  /** `seenAtNotice`: how many list changes the client had heard when each notice came. */
  const heard = { listChanged: 0, notices: [] as string[], seenAtNotice: [] as number[] };
  const waiters: Array<() => void> = [];
  const tell = () => waiters.splice(0).forEach((w) => w());
  const c = await connectHub(daemon.state, {
    workspace,
    ...opts,
    prepare: (c) => {
      c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        heard.listChanged++;
        tell();
      });
      c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        heard.notices.push(String(n.params.data));
        heard.seenAtNotice.push(heard.listChanged);
        tell();
      });
    },
  });
  clients.push(c);
  const until = async (test: () => boolean) => {
    while (!test()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { c, heard, until };
}

const names = async (c: Client): Promise<string[]> => (await c.listTools()).tools.map((t) => t.name);
const deferralOf = (c: Client): string | undefined =>
  c
    .getInstructions()
    ?.split('\n\n')
    .find((p) => p.startsWith('Deferred tools:'));

beforeAll(async () => {
  home = tempDir('blitz-deferral-');
  workspace = tempDir('blitz-deferral-ws-');
  project = fs.realpathSync(tempDir('blitz-deferral-project-'));
  // "grow" (echo, add_tool) is offered to agent grow alone; add_tool adds tools while the daemon runs
  // (pin = false: tools added so are not held for review, issue 31).
  settings =
    `[daemon]\nport = 0\n\n[hub]\nlist_wait_ms = 60000\n\n[hub.clients."grow-test"]\nmax_tools = ${GROW_LIMIT}\n\n[hub.clients."small-test"]\nmax_tools = ${SMALL_LIMIT}\n\n` +
    entry('grow', 'changing-tools', 'agents = ["grow"]\npin = false') +
    entry('env', 'env-dump', 'agents = ["main"]\nexposure = "direct"');
  writeSettings(home, settings);
  const { command, args } = fixtureCommand('env-dump');
  fs.writeFileSync(
    path.join(project, '.mcp.json'),
    JSON.stringify(
      {
        mcpServers: {
          proj: {
            command,
            args,
            prefix: 'proj',
            auto_approve: true,
            tools: ['echo', 'env', 'gone'],
            exposure: 'deferred',
            tool_exposure: { 'nothing_*': 'direct' },
          },
        },
      },
      null,
      2,
    ),
  );
  expect((await runBlitz(['trust', '--allow', 'auto_approve', project], { home })).code).toBe(0);
  daemon = await startDaemonProcess(home);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of [home, workspace, project]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('what a session is told of its deferred tools (issue 16)', () => {
  it('auto within the limit: nothing deferred, and the instructions say so; past it mid-session, list_changed brings search_tools and a notice says what is deferred', async () => {
    const { c, heard, until } = await client({ agent: 'grow', clientName: 'grow-test' });
    expect(await names(c)).toEqual(['list_mcp_resources', 'read_mcp_resource', 'echo', 'add_tool']);
    expect(deferralOf(c)).toBe(
      `Deferred tools: none now; all 2 tools of these MCP servers are in the tool list. Should they pass ${GROW_LIMIT}, this client's limit, the hub defers the rest and offers search_tools to find them.`,
    );

    // A third tool still fits: the list grows, nothing is deferred, no notice.
    expect(textOf(await c.callTool({ name: 'add_tool', arguments: { name: 'first' } }))).toBe('added first');
    await expect.poll(() => names(c)).toContain('first');
    expect(heard.notices.filter((n) => n.startsWith('Deferred tools:'))).toEqual([]);

    const changes = heard.listChanged;
    expect(textOf(await c.callTool({ name: 'add_tool', arguments: { name: 'second' } }))).toBe('added second');
    await until(() => heard.notices.some((n) => n.startsWith('Deferred tools:')));
    // The list changed first: the notice names search_tools, which the client may list by then.
    expect(heard.seenAtNotice.at(-1)).toBeGreaterThan(changes);
    expect(heard.notices.filter((n) => n.startsWith('Deferred tools:'))).toEqual([
      `Deferred tools: 3 of the 4 tools of these MCP servers are in the tool list; 1 more is deferred (this hub lists at most ${GROW_LIMIT} tools to this client, the most used first, then in server order). ` +
        'Use search_tools to find them by task or name (the matches join the tool list), and call_tool to call one if your tool list does not update.',
    ]);
    // No cliff (issue 26.7): as many as the limit has room for stay listed, in server order; the last is deferred.
    expect(await names(c)).toEqual([...HUB_TOOLS, 'echo', 'add_tool', 'first']);
    expect(textOf(await c.callTool({ name: 'call_tool', arguments: { name: 'second' } }))).toBe('second');

    // A session that begins now is told in its instructions.
    const late = await client({ agent: 'grow', clientName: 'grow-test' });
    expect(deferralOf(late.c)).toMatch(
      /^Deferred tools: 3 of the 4 tools of these MCP servers are in the tool list; 1 more is deferred \(this hub lists at most 7 tools to this client, the most used first, then in server order\)\. Use search_tools/,
    );
    // It began after add_tool's two calls and second's one: those two, then echo by server order (first is deferred now).
    expect(await names(late.c)).toEqual([...HUB_TOOLS, 'echo', 'add_tool', 'second']);
  }, 60_000);

  it('a settings edit that ends deferral is told too: the limit raised, a notice that nothing is deferred now', async () => {
    const { c, heard, until } = await client({ agent: 'grow', clientName: 'small-test' });
    // Room for one of the server's tools beside the hub's four.
    const small = async () => (await names(c)).slice(0, 4);
    expect(await small()).toEqual(HUB_TOOLS);
    expect(await names(c)).toHaveLength(SMALL_LIMIT);
    const changes = heard.listChanged;
    writeSettings(home, settings.replace(`max_tools = ${SMALL_LIMIT}`, 'max_tools = 50'));
    await until(() => heard.notices.some((n) => n.startsWith('Deferred tools:')));
    expect(heard.seenAtNotice.at(-1)).toBeGreaterThan(changes);
    // The first test may have added tools to the server: 2 or more.
    expect(heard.notices.filter((n) => n.startsWith('Deferred tools:'))).toEqual([
      expect.stringMatching(
        /^Deferred tools: none now; all \d+ tools of these MCP servers are in the tool list\. Should they pass 50, this client's limit, the hub defers the rest and offers search_tools to find them\.$/,
      ),
    ]);
    expect(await names(c)).toEqual(expect.arrayContaining(['echo', 'add_tool']));
    expect(await names(c)).not.toContain('search_tools');
    writeSettings(home, settings);
    await until(() => heard.notices.filter((n) => n.startsWith('Deferred tools:')).length === 2);
    expect(await small()).toEqual(HUB_TOOLS);
    expect(await names(c)).toHaveLength(SMALL_LIMIT);
  }, 60_000);

  it("a trusted project's .mcp.json may set exposure and tool_exposure: its server's tool is deferred, found and called", async () => {
    const { c } = await client({ workspace: project });
    expect(await names(c)).toEqual([...HUB_TOOLS, 'echo', 'env']);
    expect(deferralOf(c)).toMatch(
      /^Deferred tools: 2 of the 4 tools of these MCP servers are in the tool list; 2 more are deferred \(their servers' settings mark them deferred\)\./,
    );
    const found = await c.callTool({ name: 'search_tools', arguments: { query: 'proj__env' } });
    expect((found.structuredContent as { tools: Array<{ name: string; server: string }> }).tools[0]).toEqual(
      expect.objectContaining({ name: 'proj__env', server: 'proj' }),
    );
    expect(textOf(await c.callTool({ name: 'call_tool', arguments: { name: 'proj__env' } }))).toContain('PATH');
    // The tools entry it does not offer and the pattern that matches none of its tools are warnings of that server, naming its file and their lines.
    const ws = (await daemon.client.listWorkspaces()).find((w) => w.root === project)!;
    const proj = (await daemon.client.listWorkspaceServers(ws.id)).find((s) => s.name === 'proj')!;
    const file = path.join(project, '.mcp.json');
    const lineOf = (key: string) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((l) => l.trimStart().startsWith(`"${key}":`)) + 1;
    expect(proj.warnings).toContain(`tools lists "gone", which the server does not offer (${file}:${lineOf('tools')})`);
    expect(proj.warnings).toContain(`tool_exposure "nothing_*" matches no tool the server offers (${file}:${lineOf('nothing_*')})`);
  }, 60_000);

  it('the daemon log names each client as its initialize did, with the limit that name picks: the name [hub.clients] takes', async () => {
    for (const via of ['lines', 'http'] as const) await client({ agent: 'grow', clientName: `small-test`, via });
    const initialized = () =>
      fs
        .readFileSync(path.join(home, 'logs', 'blitz.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((e) => e.msg === 'client initialized' && e.client === 'small-test');
    await expect.poll(() => initialized().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    for (const e of initialized())
      expect(e).toEqual(
        expect.objectContaining({ session: expect.any(String), client: 'small-test', version: '1.0.0', maxTools: SMALL_LIMIT }),
      );
  }, 60_000);

  it("a search's answer comes after the client's listing on its list_changed: the listing, with the found tool, arrives first", async () => {
    // As Claude Code does: it lists again on the notice, and builds the model's next turn from
    // the list it holds when the answer comes — sent first, that turn lacked the found tools.
    const follower = await connectHub(daemon.state, {
      workspace: project,
      // As blitz connect carries it: one ordered line stream, as a stdio client reads it.
      via: 'lines',
      prepare: (c) => c.setNotificationHandler(ToolListChangedNotificationSchema, async () => void (await names(c))),
    });
    clients.push(follower);
    // The answers in the order they arrive, before the SDK client's own handling of each.
    const arrived: string[] = [];
    const transport = follower.transport!;
    const deliver = transport.onmessage!;
    transport.onmessage = (message, extra) => {
      const result = (message as { result?: { tools?: Array<{ name: string }>; structuredContent?: unknown } }).result;
      if (result?.structuredContent) arrived.push('search answer');
      else if (result?.tools) arrived.push(`listing${result.tools.some((t) => t.name === 'proj__echo') ? ' with proj__echo' : ''}`);
      deliver(message, extra);
    };
    const found = await follower.callTool({ name: 'search_tools', arguments: { query: 'proj__echo', limit: 1 } });
    expect((found.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual(['proj__echo']);
    expect(arrived).toEqual(['listing with proj__echo', 'search answer']);
    // A client that does not list again is answered after the wait's bound: relist-wait.test.ts, on a fake clock.
  }, 60_000);
});
