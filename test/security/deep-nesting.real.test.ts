import fs from 'node:fs';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MCP_LINES_PROTOCOL, type DaemonState } from '@blitz/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf, type HubTransport } from '../support/hub-client.js';

/** A tools/call whose arguments nest 100,000 arrays deep: 200 KB, well under the size limit. */
function deepCall(id: number): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`;
}
const REFUSAL = {
  code: -32602,
  message: 'Invalid params: the message nests objects and arrays deeper than 64 levels; it was not passed on',
};
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '0' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;
const clients: Client[] = [];
const sockets: Duplex[] = [];

beforeEach(async () => {
  home = tempDir('blitz-deep-');
  workspace = tempDir('blitz-deep-ws-');
  const { command, args } = fixtureCommand('env-dump');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "everything"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\n`,
  );
  daemon = await startDaemonProcess(home);
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  if (daemon) await daemon.stop();
  daemon = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

/** A raw client that writes bytes the SDK client could not even serialize; answers by request id. */
interface RawClient {
  call(line: string, id: number): Promise<unknown>;
}

async function rawHttp(state: DaemonState): Promise<RawClient> {
  const url = `http://127.0.0.1:${state.port}/mcp?workspace=${encodeURIComponent(workspace)}`;
  const headers: Record<string, string> = {
    authorization: `Bearer ${state.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const init = await fetch(url, { method: 'POST', headers, body: JSON.stringify(INITIALIZE) });
  expect(init.status).toBe(200);
  headers['mcp-session-id'] = init.headers.get('mcp-session-id')!;
  await (await fetch(url, { method: 'POST', headers, body: JSON.stringify(INITIALIZED) })).text();
  return {
    async call(line) {
      const response = await fetch(url, { method: 'POST', headers, body: line });
      expect(response.status).toBe(200);
      return response.json();
    },
  };
}

async function rawLines(state: DaemonState): Promise<RawClient> {
  const socket = await new Promise<Duplex>((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: state.port,
      path: `/mcp?workspace=${encodeURIComponent(workspace)}`,
      headers: { connection: 'Upgrade', upgrade: MCP_LINES_PROTOCOL, authorization: `Bearer ${state.token}` },
    });
    req.once('upgrade', (_res, s) => resolve(s));
    req.once('response', (res) => reject(new Error(`no upgrade: HTTP ${res.statusCode}`)));
    req.once('error', reject);
    req.end();
  });
  sockets.push(socket);
  const answers = new Map<number, unknown>();
  let buffered = '';
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, nl)) as { id?: number };
      buffered = buffered.slice(nl + 1);
      if (typeof message.id === 'number') answers.set(message.id, message);
    }
  });
  const answer = async (id: number) => {
    await expect.poll(() => answers.has(id), { timeout: 10_000 }).toBe(true);
    return answers.get(id);
  };
  socket.write(`${JSON.stringify(INITIALIZE)}\n`);
  await answer(0);
  socket.write(`${JSON.stringify(INITIALIZED)}\n`);
  return {
    async call(line, id) {
      socket.write(`${line}\n`);
      return answer(id);
    },
  };
}

describe.each<HubTransport>(['http', 'lines'])('a request nested 100,000 deep over %s', (via) => {
  it('gets -32602 for that client only; the server stays healthy and other clients keep calling', async () => {
    const other = await connectHub(daemon!.state, { workspace, via: via === 'http' ? 'lines' : 'http' });
    clients.push(other);
    expect(textOf(await other.callTool({ name: 'echo', arguments: { text: 'before' } }))).toBe('before');

    const attacker = via === 'http' ? await rawHttp(daemon!.state) : await rawLines(daemon!.state);
    // More than enough failures to open the breaker, had they been counted against the server.
    for (let id = 1; id <= 5; id++) expect(await attacker.call(deepCall(id), id)).toEqual({ jsonrpc: '2.0', id, error: REFUSAL });
    // The attacker's own session is fine too: a normal call on it works.
    expect(
      await attacker.call('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"mine"}}}', 9),
    ).toMatchObject({ id: 9, result: { content: [{ type: 'text', text: 'mine' }] } });

    expect(textOf(await other.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
    expect((await other.listTools()).tools.map((t) => t.name)).toContain('echo');
    const status = await daemon!.client.status();
    expect(status.servers).toEqual([expect.objectContaining({ name: 'everything', state: 'connected' })]);
    expect(status.notices).toEqual([]);
  });
});
