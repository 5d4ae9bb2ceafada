import fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

// Issue 25.3: a [permissions] deny rule applies to every request that reaches a server —
// resources/read and subscribe, prompts/get, completion/complete — not only to tool calls.
// The protocol fixture says what it was asked (tool `upstream`): a denied request never reached it.
let home: string;
let workspace: string;
let daemon: RunningDaemon;
let client: Client;

const { command, args } = fixtureCommand('protocol');
const settings = (deny: string[]) =>
  `[daemon]\nport = 0\n\n[permissions]\ndeny = ${JSON.stringify(deny)}\n\n` +
  `[[mcp.servers]]\nname = "px"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\nprefix = "px"\n`;

interface Upstream {
  subscribe: string[];
  read: string[];
  getPrompt: string[];
  complete: string[];
}
const upstream = async (): Promise<Upstream> =>
  JSON.parse(textOf(await client.callTool({ name: 'px__upstream', arguments: {} }))) as Upstream;

const read = (uri: string) => client.readResource({ uri });
const getPrompt = () => client.getPrompt({ name: 'px__pick', arguments: { value: 'v1' } });
const completePrompt = () => client.complete({ ref: { type: 'ref/prompt', name: 'px__pick' }, argument: { name: 'value', value: 'v1' } });
const completeTemplate = () =>
  client.complete({ ref: { type: 'ref/resource', uri: 'fixture://items/{id}' }, argument: { name: 'id', value: '' } });

beforeAll(async () => {
  home = tempDir('blitz-deny-');
  workspace = tempDir('blitz-deny-ws-');
  writeSettings(home, settings(['mcp:px:*']));
  daemon = await startDaemonProcess(home);
  client = await connectHub(daemon.state, { workspace });
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of [home, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('[permissions] deny on every method that reaches a server (issue 25.3, over /mcp)', () => {
  it('deny = ["mcp:px:*"]: reads, subscriptions, prompts and completions are refused naming the rule, and the server is never asked', async () => {
    const rule = 'denied by the rule "mcp:px:*" in [permissions] deny';
    await expect(read('fixture://doc')).rejects.toThrow(`reading fixture://doc (MCP server "px") was refused: ${rule}`);
    await expect(read('fixture://items/9')).rejects.toThrow(rule);
    await expect(client.subscribeResource({ uri: 'fixture://doc' })).rejects.toThrow(
      `subscribing to fixture://doc (MCP server "px") was refused: ${rule}`,
    );
    await expect(getPrompt()).rejects.toThrow(`prompt px__pick (MCP server "px") was refused: ${rule}`);
    await expect(completePrompt()).rejects.toThrow(rule);
    await expect(completeTemplate()).rejects.toThrow(rule);
    // The resource tools and the server's own tools, as before.
    const tool = await client.callTool({ name: 'read_mcp_resource', arguments: { server: 'px', uri: 'fixture://doc' } });
    expect([tool.isError, textOf(tool)]).toEqual([true, expect.stringContaining(rule)]);
    // What a rule denies is not offered in the lists either.
    expect((await client.listPrompts()).prompts.map((p) => p.name)).not.toContain('px__pick');
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);

    // Narrowed to the server's prompts (a live edit): resources are served again, prompts still refused.
    writeSettings(home, settings(['mcp:px:prompt:*']));
    await expect
      .poll(async () => (await client.listResources()).resources.map((r) => r.uri), { timeout: 30_000 })
      .toContain('fixture://doc');
    expect(await upstream()).toMatchObject({ subscribe: [], read: [], getPrompt: [], complete: [] });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).not.toContain('px__pick');
    await expect(getPrompt()).rejects.toThrow(
      'prompt px__pick (MCP server "px") was refused: denied by the rule "mcp:px:prompt:*" in [permissions] deny',
    );
    await expect(completePrompt()).rejects.toThrow('"mcp:px:prompt:*"');
    expect((await read('fixture://doc')).contents).toEqual([expect.objectContaining({ text: 'read fixture://doc' })]);
    expect((await completeTemplate()).completion.values).toEqual(['1', '2', '3']);
    await client.subscribeResource({ uri: 'fixture://doc' });
    expect(await upstream()).toMatchObject({
      subscribe: ['fixture://doc'],
      read: ['fixture://doc'],
      getPrompt: [],
      complete: ['fixture://items/{id}'],
    });

    // No rule: the prompt is served.
    writeSettings(home, settings([]));
    await expect.poll(async () => (await client.listPrompts()).prompts.map((p) => p.name), { timeout: 30_000 }).toContain('px__pick');
    expect((await getPrompt()).messages[0]!.content).toEqual({ type: 'text', text: 'picked v1' });
    expect((await upstream()).getPrompt).toEqual(['pick']);
  });
});
