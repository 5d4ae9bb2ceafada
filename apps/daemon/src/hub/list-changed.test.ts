import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlitzClient } from '@blitz/client';
import { FakeClock } from '@blitz/clock';
import type { Daemon } from '../daemon.js';
import { startInProcessDaemon, type InProcessDaemon } from '../testing/in-process-daemon.js';
import { NOTIFY_DEBOUNCE_MS } from './hub-endpoint.js';

// In-process (as daemon.test.ts), with a fake clock that runs the hub's debounce: two sessions
// of one workspace, agent `main` offered `mine`, agent `other` offered `theirs`. A session
// hears `list_changed` when a server it is offered changes, and not when another's does.

const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/', import.meta.url));
const entry = (name: string, fixture: string, extra: string) =>
  `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([path.join(FIXTURES, `${fixture}.mjs`)])}\nsandbox = false\nauto_approve = true\n${extra}\n`;
// Without the catalog cache, a restarted server's tools leave the list until it runs again: a list change.
const SETTINGS = '[hub]\ncatalog_cache = false\n\n' + entry('mine', 'env-dump', '') + entry('theirs', 'resources', 'agents = ["other"]\nprefix = "t"');

let running: InProcessDaemon;
let workspace: string;
const clock = new FakeClock();
let daemon: Daemon;
let api: BlitzClient;

beforeAll(async () => {
  running = await startInProcessDaemon('blitz-lc', SETTINGS, clock);
  ({ workspace, daemon, client: api } = running);
});

afterAll(() => running.stop());

/** A session of `agent`, counting the list_changed notifications it hears. */
async function session(agent: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp?workspace=${encodeURIComponent(workspace)}&agent=${agent}`), {
    requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
  });
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
