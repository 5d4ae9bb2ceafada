import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlitzClient } from '@blitz/client';
import { FakeClock } from '@blitz/clock';
import { startInProcessDaemon, type InProcessDaemon } from '../testing/in-process-daemon.js';
import { NOTIFY_DEBOUNCE_MS } from './hub-endpoint.js';
import { START_SOON_HOLD_MS } from '@blitz/core';

// In-process (as daemon.real.test.ts), with a fake clock that runs the hub's debounce: two sessions
// of one workspace, agent `main` offered `mine`, agent `other` offered `theirs`. A session
// hears `list_changed` when a server it is offered changes, and not when another's does.

const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/', import.meta.url));
const entry = (name: string, fixture: string, extra: string) =>
  `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([path.join(FIXTURES, `${fixture}.mjs`)])}\nsandbox = false\nauto_approve = true\n${extra}\n`;
// Without the catalog cache, a restarted server's tools leave the list until it runs again: a list change.
const SETTINGS =
  '[hub]\ncatalog_cache = false\n\n' + entry('mine', 'env-dump', '') + entry('theirs', 'resources', 'agents = ["other"]\nprefix = "t"');

let running: InProcessDaemon;
const clock = new FakeClock();
let api: BlitzClient;

beforeAll(async () => {
  running = await startInProcessDaemon('blitz-lc', SETTINGS, clock);
  api = running.client;
});

afterAll(() => running.stop());

/** A session of `agent`, counting the list_changed notifications it hears. */
async function session(agent: string, on: Pick<InProcessDaemon, 'daemon' | 'workspace'> = running) {
  const transport = new StreamableHTTPClientTransport(
    new URL(`${on.daemon.url}/mcp?workspace=${encodeURIComponent(on.workspace)}&agent=${agent}`),
    {
      requestInit: { headers: { authorization: `Bearer ${on.daemon.token}` } },
    },
  );
  const client = new Client({ name: `lc-${agent}`, version: '0' });
  const heard = { tools: 0, prompts: 0, resources: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.tools++);
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void heard.prompts++);
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void heard.resources++);
  await client.connect(transport);
  return { client, transport, heard };
}

/** A server restarted through the control API, and the hub's debounce run. */
async function restart(name: string): Promise<void> {
  const [ws] = await api.listWorkspaces();
  await api.restartServer(ws!.id, name);
  clock.advance(NOTIFY_DEBOUNCE_MS);
}

describe('list_changed reaches the sessions whose lists changed, and only them', () => {
  it("a server's restart tells the agent offered it (tools, prompts, resources); the other agent's session hears nothing", async () => {
    const main = await session('main');
    const other = await session('other');
    try {
      expect((await main.client.listTools()).tools.map((t) => t.name)).toContain('env');
      expect((await other.client.listTools()).tools.map((t) => t.name)).toContain('t__sized');

      // Each step ends with a notification the session must hear; on one stream, anything
      // sent before it (a needless one) has arrived by then.
      await restart('mine');
      await expect.poll(() => main.heard.tools).toBe(1);
      await restart('theirs');
      await expect.poll(() => other.heard.tools).toBe(1);
      // Listed again, `mine` runs again: main's catalog changed, and the tools it lists equal those it was shown.
      expect((await main.client.listTools()).tools.map((t) => t.name)).toContain('env');
      clock.advance(NOTIFY_DEBOUNCE_MS);
      await expect.poll(() => main.heard.prompts).toBe(2);

      expect(main.heard).toEqual({ tools: 1, prompts: 2, resources: 2 });
      expect(other.heard).toEqual({ tools: 1, prompts: 1, resources: 1 });
    } finally {
      for (const s of [main, other]) {
        await s.transport.terminateSession();
        await s.client.close();
      }
    }
  });
});

describe('a cold start answered from the catalog cache', () => {
  it('the cached server going live with what the cache said tells the session nothing; its restart tells it prompts and resources once', async () => {
    const cold = new FakeClock();
    const settings = entry('mine', 'env-dump', '');
    // The first run lists `mine`, so the cache holds its listing; its files stay for the second.
    const first = await startInProcessDaemon('blitz-lc-cold', settings, cold);
    const ws = await first.client.openWorkspace(first.workspace);
    await first.client.listWorkspaceServers(ws.id, { connect: true });
    await first.daemon.stop();
    const again = await startInProcessDaemon('blitz-lc-cold', settings, cold, first);
    const s = await session('main', again);
    const state = async () =>
      (await again.client.listWorkspaceServers((await again.client.listWorkspaces())[0]!.id)).find((x) => x.name === 'mine')?.state;
    try {
      expect((await s.client.listTools()).tools.map((t) => t.name)).toContain('env');
      expect(await state()).not.toBe('connected');
      // Answered from the cache, it starts once the listings pause; live, it lists what the cache said.
      cold.advance(START_SOON_HOLD_MS);
      await expect.poll(state).toBe('connected');
      cold.advance(NOTIFY_DEBOUNCE_MS);

      // A restart is a change: heard once the server runs again. Anything the cold start sent came before, on the same stream.
      await again.client.restartServer((await again.client.listWorkspaces())[0]!.id, 'mine');
      await s.client.listTools();
      cold.advance(START_SOON_HOLD_MS);
      await expect.poll(state).toBe('connected');
      cold.advance(NOTIFY_DEBOUNCE_MS);
      await expect.poll(() => s.heard.resources).toBe(1);
      expect(s.heard).toEqual({ tools: 0, prompts: 1, resources: 1 });
    } finally {
      await s.transport.terminateSession();
      await s.client.close();
      await again.stop();
    }
  });
});
