import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonState } from '@blitz/client';
import { VERSION } from '../../version.js';
import { openDaemonStream } from './daemon-stream.js';

let server: http.Server | undefined;
let local: http.Server | undefined;
let dir: string | undefined;
/** The upgraded connections: the HTTP server no longer holds them. */
const upgraded: Duplex[] = [];

afterEach(async () => {
  for (const socket of upgraded.splice(0)) socket.destroy();
  for (const s of [server, local]) {
    s?.closeAllConnections();
    await new Promise((resolve) => s?.close(resolve) ?? resolve(undefined));
  }
  server = local = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A daemon's local socket that upgrades `/mcp` and answers each line with the Host it was asked under. */
async function localSocket(): Promise<string> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-sock-'));
  const socketPath = path.join(dir, 'mcp.sock');
  local = http.createServer();
  local.on('upgrade', (req: http.IncomingMessage, socket: Duplex) => {
    upgraded.push(socket);
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: blitz-mcp-lines\r\nConnection: Upgrade\r\n\r\n');
    socket.on('data', () =>
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { host: req.headers.host, auth: req.headers.authorization } })}\n`),
    );
  });
  await new Promise<void>((resolve) => local!.listen(socketPath, resolve));
  return socketPath;
}

/** A daemon from before the lines transport: it answers the upgrade as a plain GET /mcp. */
async function oldDaemon(version: string): Promise<DaemonState> {
  server = http.createServer((_req, res) => {
    res
      .writeHead(400, { 'content-type': 'application/json' })
      .end(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: no session; send initialize first' }, id: null }),
      );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { pid: process.pid, port: (server.address() as AddressInfo).port, token: 't', version, startedAt: new Date().toISOString() };
}

describe('openDaemonStream', () => {
  it('a daemon of another version that refuses the upgrade: the error says to restart it', async () => {
    const state = await oldDaemon('0.0.1');
    await expect(openDaemonStream(state, new URLSearchParams())).rejects.toThrow(
      `the daemon refused the connection (HTTP 400): Bad Request: no session; send initialize first; the running daemon is Blitz 0.0.1, older than this blitz (${VERSION}): restart it with \`blitz daemon restart\``,
    );
  });

  it('the same version refusing: only its reason', async () => {
    const state = await oldDaemon(VERSION);
    await expect(openDaemonStream(state, new URLSearchParams())).rejects.toThrow(
      /^the daemon refused the connection \(HTTP 400\): Bad Request: no session; send initialize first$/,
    );
  });

  it('over the local socket when the daemon has one, with the Host and token of its port', async () => {
    const state = { ...(await oldDaemon(VERSION)), socket: await localSocket() };
    const transport = await openDaemonStream(state, new URLSearchParams());
    const answered = new Promise<Buffer>((resolve) => (transport.onlines = resolve));
    transport.start();
    transport.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    // The port would have refused: the answer came over the socket.
    expect(JSON.parse((await answered).toString())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { host: `127.0.0.1:${state.port}`, auth: 'Bearer t' },
    });
    await transport.close();
  });

  it('over the port when the socket cannot be reached: removed, or nothing listening on it', async () => {
    const socketPath = await localSocket();
    const gone = { ...(await oldDaemon(VERSION)), socket: path.join(dir!, 'gone.sock') };
    await expect(openDaemonStream(gone, new URLSearchParams())).rejects.toThrow(/^the daemon refused the connection \(HTTP 400\)/);
    await new Promise((resolve) => local!.close(resolve));
    local = undefined;
    fs.writeFileSync(path.join(dir!, 'file'), '');
    for (const socket of [socketPath, path.join(dir!, 'file')]) {
      await expect(openDaemonStream({ ...gone, socket }, new URLSearchParams())).rejects.toThrow(
        /^the daemon refused the connection \(HTTP 400\)/,
      );
    }
  });
});
