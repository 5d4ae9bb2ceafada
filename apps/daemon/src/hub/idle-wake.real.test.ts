import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GlobalServerStatus } from '@blitz/client/api-types';
import { FakeClock } from '@blitz/clock';
import { startInProcessDaemon, type InProcessDaemon } from '../testing/in-process-daemon.js';
import { KEEP_ALIVE_COMMENT, KEEP_ALIVE_MS } from './sse-keep-alive.js';

// Idle reaping (issue 32.1) with the daemon's clock in the test's hand: a real daemon in this
// process, the protocol fixture as a real stdio server, clients over real HTTP and through a real
// `blitz connect`. A reaped server starts again for any request, not only a tool call; what only
// listens (the GET stream, a list-change listen) holds nothing up; a resource subscription does.

const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/', import.meta.url));
const BLITZ_BIN = fileURLToPath(new URL('../../../cli/bin/blitz.js', import.meta.url));
const IDLE_SECONDS = 60;
const SETTINGS = `[hub]\nidle_timeout_seconds = ${IDLE_SECONDS}\n\n[[mcp.servers]]\nname = "px"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([path.join(FIXTURES, 'protocol.mjs')])}\nsandbox = false\nprefix = "px"\nauto_approve = true\n`;
const MODERN = '2026-07-28';

let clock: FakeClock;
let running: InProcessDaemon;
/** Every server process seen, to show none outlives its daemon. */
const pids = new Set<number>();

/** A daemon of its own for each block: what one lists and caches is not the next one's. */
function withDaemon(): void {
  beforeAll(async () => {
    clock = new FakeClock();
    running = await startInProcessDaemon('blitz-wake', SETTINGS, clock);
  });
  afterAll(async () => {
    await running.stop();
    expect([...pids].filter(isOurs)).toEqual([]);
  });
}

/** Still running as this process's child (Linux: /proc), not a zombie waiting to be reaped; a pid reused by another is not. */
function isOurs(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return state !== 'Z' && state !== 'X' && Number(ppid) === process.pid;
  } catch {
    return false;
  }
}

async function px(): Promise<GlobalServerStatus> {
  const server = (await running.client.status()).servers.find((s) => s.name === 'px')!;
  for (const copy of server.copies ?? []) if (copy.pid !== undefined) pids.add(copy.pid);
  return server;
}

/** The idle timeout passed, as often as it takes for the end of the last use to have armed it. */
async function idleOut(): Promise<void> {
  await expect
    .poll(async () => {
      clock.advance(IDLE_SECONDS * 1000);
      return (await px()).reaped;
    })
    .toBe(true);
  expect(await px()).toMatchObject({ state: 'idle', copies: [] });
}

/** The CLI against this daemon, as a user runs it: its stdout. */
function blitz(args: string[]): Promise<string> {
  const env = { PATH: process.env.PATH!, HOME: running.home, BLITZ_HOME: running.home };
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [BLITZ_BIN, ...args], { env }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
}

const mcpUrl = () => `${running.daemon.url}/mcp?workspace=${encodeURIComponent(running.workspace)}`;
const bearer = () => ({ authorization: `Bearer ${running.daemon.token}` });

async function overHttp(): Promise<{ client: Client; sessionId: () => string | undefined }> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl()), { requestInit: { headers: bearer() } });
  const client = new Client({ name: 'wake-http', version: '1' });
  await client.connect(transport);
  return { client, sessionId: () => transport.sessionId };
}

async function overConnect(): Promise<{ client: Client; sessionId: () => string | undefined }> {
  const client = new Client({ name: 'wake-connect', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BLITZ_BIN, 'connect', '--workspace', running.workspace],
      env: { PATH: process.env.PATH!, HOME: running.home, BLITZ_HOME: running.home },
      stderr: 'pipe',
    }),
  );
  return { client, sessionId: () => undefined };
}

describe.each([
  ['/mcp streamable HTTP', overHttp],
  ['blitz connect (stdio)', overConnect],
])('a reaped server, through %s', (via, connect) => {
  withDaemon();

  it('starts again for prompts/get, resources/read and a first resources/templates/list, each answered in full; no reap is a failure', async () => {
    const { client, sessionId } = await connect();
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('px__describe');
      if (via.startsWith('/mcp')) {
        // The SDK client holds its session's GET stream open (a second one is refused): listening is no use.
        const second = await fetch(mcpUrl(), {
          headers: { ...bearer(), accept: 'text/event-stream', 'mcp-session-id': sessionId()!, 'mcp-protocol-version': '2025-11-25' },
        });
        expect(second.status).toBe(409);
        await second.body?.cancel();
      }
      const templates = { resourceTemplates: [expect.objectContaining({ uriTemplate: 'fixture://items/{id}', name: 'item' })] };
      const uses: Array<[string, () => Promise<unknown>, unknown]> = [
        ['resources/templates/list', () => client.listResourceTemplates(), templates],
        [
          'prompts/get',
          () => client.getPrompt({ name: 'px__pick', arguments: { value: 'v1' } }),
          { messages: [{ role: 'user', content: { type: 'text', text: 'picked v1' } }] },
        ],
        [
          'resources/read',
          () => client.readResource({ uri: 'fixture://doc' }),
          { contents: [{ uri: 'fixture://doc', mimeType: 'text/plain', text: 'read fixture://doc' }] },
        ],
      ];
      let pid = (await px()).copies?.[0]?.pid;
      for (const [method, use, answer] of uses) {
        await idleOut();
        expect(await use(), method).toMatchObject(answer as object);
        const now = await px();
        expect(now, method).toMatchObject({ state: 'connected' });
        expect(now.reaped, method).toBeUndefined();
        expect(now.copies?.[0]?.pid, method).not.toBe(pid);
        pid = now.copies?.[0]?.pid;
      }
      expect((await running.client.status()).notices.filter((n) => n.server === 'px')).toEqual([]);

      // Listed once, its lists stay from the catalog cache, as its tools do: listing wakes nothing.
      await idleOut();
      expect(await client.listResourceTemplates()).toMatchObject(templates);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('px__describe');
      expect(await px()).toMatchObject({ state: 'idle', reaped: true });
      const list = await blitz(['mcp', 'list']);
      expect(list).toMatch(/^px +stdio +.*protocol\.mjs +0 +idle \(stopped to save memory\)$/m);
      // And a tool call, the use a client makes most, starts it again.
      const called = await client.callTool({ name: 'px__describe', arguments: {} });
      expect(called.isError).toBeFalsy();
      expect(await px()).toMatchObject({ state: 'connected' });
    } finally {
      await client.close();
    }
  });

  it('is never reaped while a session holds a resource subscription; let go, it is', async () => {
    const { client } = await connect();
    try {
      await client.subscribeResource({ uri: 'fixture://doc' });
      for (let i = 0; i < 5; i++) clock.advance(IDLE_SECONDS * 1000);
      expect(await px()).toMatchObject({ state: 'connected' });
      await client.unsubscribeResource({ uri: 'fixture://doc' });
      await idleOut();
    } finally {
      await client.close();
    }
  });
});

describe(`a ${MODERN} client's subscriptions/listen`, () => {
  withDaemon();

  /** A listen stream held open, its first frame (its acknowledgement) read; `next` reads the one after. */
  async function listen(notifications: Record<string, unknown>): Promise<{ abort(): void; next(): Promise<string> }> {
    const controller = new AbortController();
    const response = await fetch(mcpUrl(), {
      method: 'POST',
      signal: controller.signal,
      headers: {
        ...bearer(),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'listen',
        method: 'subscriptions/listen',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientInfo': { name: 'wake-modern', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
          notifications,
        },
      }),
    });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('notifications/subscriptions/acknowledged');
    void reader.closed.catch(() => undefined);
    return { abort: () => controller.abort(), next: async () => new TextDecoder().decode((await reader.read()).value) };
  }

  it('for list changes only holds nothing up; with a resource subscription it keeps the server up until it ends', async () => {
    const { client } = await overHttp();
    try {
      await client.listTools();
      const lists = await listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
      try {
        await idleOut();
        await client.callTool({ name: 'px__describe', arguments: {} });
        const subscribed = await listen({ resourceSubscriptions: ['fixture://doc'] });
        for (let i = 0; i < 5; i++) clock.advance(IDLE_SECONDS * 1000);
        expect(await px()).toMatchObject({ state: 'connected' });
        subscribed.abort();
        await idleOut();
      } finally {
        lists.abort();
      }
    } finally {
      await client.close();
    }
  });

  it('hears an SSE comment every 25 s of quiet, so a client or proxy waiting for bytes does not give up on it', async () => {
    const stream = await listen({ toolsListChanged: true });
    try {
      clock.advance(KEEP_ALIVE_MS);
      expect(await stream.next()).toBe(KEEP_ALIVE_COMMENT);
      clock.advance(KEEP_ALIVE_MS);
      expect(await stream.next()).toBe(KEEP_ALIVE_COMMENT);
    } finally {
      stream.abort();
    }
  });
});
