import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlitzClient } from '@blitz/client';
import type { Daemon } from './daemon.js';
import { startInProcessDaemon, type InProcessDaemon } from './testing/in-process-daemon.js';

// In-process, like daemon.test.ts: the status the tray polls is rebuilt when a server's state
// changes, and not when a server only talks (log messages, resource updates).

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));
const SETTINGS = `[[mcp.servers]]\nname = "proto"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([path.join(FIXTURES, 'protocol.mjs')])}\nsandbox = false\nauto_approve = true\n`;

let running: InProcessDaemon;
let workspace: string;
let daemon: Daemon;
let client: BlitzClient;

beforeAll(async () => {
  running = await startInProcessDaemon('blitz-status', SETTINGS);
  ({ workspace, daemon, client } = running);
});

afterAll(() => running.stop());

const statusText = async () => (await daemon.request('/v1/status', { headers: { authorization: `Bearer ${daemon.token}` } })).text();

describe('GET /v1/status between events', () => {
  it("a server's log messages and resource updates rebuild nothing; its restart is in the next answer", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp?workspace=${encodeURIComponent(workspace)}`), {
      requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
    });
    const mcp = new Client({ name: 'in-process', version: '0' });
    const logged: string[] = [];
    mcp.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logged.push(String(n.params.data)));
    await mcp.connect(transport);
    try {
      await mcp.listTools();
      const connected = await statusText();
      expect(JSON.parse(connected)).toMatchObject({ servers: [{ name: 'proto', state: 'connected', copies: [{ pid: expect.any(Number) }] }] });
      const builds = daemon.statusBuilds;
      expect(await statusText()).toBe(connected);

      // The daemon hears a `log` event (the client gets the message) and a `resourceUpdated` one.
      await mcp.callTool({ name: 'log', arguments: { level: 'error', message: 'busy server talking' } });
      await expect.poll(() => logged).toContain('busy server talking');
      await mcp.callTool({ name: 'touch', arguments: { uri: 'fixture://a' } });
      expect(await statusText()).toBe(connected);
      expect(daemon.statusBuilds).toBe(builds);

      const [ws] = await client.listWorkspaces();
      await client.restartServer(ws!.id, 'proto');
      const restarted = await statusText();
      expect(daemon.statusBuilds).toBe(builds + 1);
      expect(restarted).not.toBe(connected);
      expect(JSON.parse(restarted)).toMatchObject({ servers: [{ name: 'proto', state: 'idle', copies: [] }] });
    } finally {
      await transport.terminateSession();
      await mcp.close();
    }
  });
});
