import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlitzClient } from '@blitz/client';
import type { Daemon } from './daemon.js';
import { startInProcessDaemon, type InProcessDaemon } from './testing/in-process-daemon.js';

// In-process, like daemon.real.test.ts: the status the tray polls is rebuilt when a server's state
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
      expect(JSON.parse(connected)).toMatchObject({
        servers: [{ name: 'proto', state: 'connected', copies: [{ pid: expect.any(Number) }] }],
      });
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

describe('GET /v1/status asked again with its tag', () => {
  const auth = () => ({ authorization: `Bearer ${daemon.token}` });

  it('over the socket: the same tag is answered 304 with no body, a change with the new bytes and their tag', async () => {
    const first = await fetch(`${daemon.url}/v1/status`, { headers: auth() });
    const body = await first.text();
    const etag = first.headers.get('etag');
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await fetch(`${daemon.url}/v1/status`, { headers: { ...auth(), 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    // As a list, and weak: still the same bytes.
    const listed = await fetch(`${daemon.url}/v1/status`, { headers: { ...auth(), 'if-none-match': `"other", W/${etag!}` } });
    expect(listed.status).toBe(304);
    await listed.arrayBuffer();

    const stale = await fetch(`${daemon.url}/v1/status`, { headers: { ...auth(), 'if-none-match': '"not-these-bytes"' } });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(body);
    const [ws] = await client.listWorkspaces();
    const { name } = JSON.parse(body).servers[0];
    // Restarted and connected again: another process, so other bytes.
    await client.restartServer(ws!.id, name);
    await client.listWorkspaceServers(ws!.id, { connect: true });
    const changed = await fetch(`${daemon.url}/v1/status`, { headers: { ...auth(), 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(await changed.text()).not.toBe(body);
  });

  it('a wrong token is refused even with a current tag, and other answers carry no tag', async () => {
    const { headers } = await fetch(`${daemon.url}/v1/status`, { headers: auth() });
    const refused = await fetch(`${daemon.url}/v1/status`, {
      headers: { authorization: 'Bearer wrong', 'if-none-match': headers.get('etag')! },
    });
    expect(refused.status).toBe(401);
    await refused.arrayBuffer();
    const health = await fetch(`${daemon.url}/v1/health`, { headers: auth() });
    expect(health.headers.get('etag')).toBeNull();
    await health.arrayBuffer();
  });

  it("BlitzClient asks with the last answer's tag and, told 304, answers the same status; a new cursor is asked for whole", async () => {
    const seen: number[] = [];
    const polling = new BlitzClient(
      { port: daemon.port, token: daemon.token },
      {
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          seen.push(response.status);
          return response;
        },
      },
    );
    const first = await polling.status(0);
    expect(await polling.status(0)).toEqual(first);
    expect(await polling.status(0)).toEqual(first);
    expect(await polling.status()).toEqual({ ...first, notices: expect.any(Array) });
    expect(seen).toEqual([200, 304, 304, 200]);
  });
});
