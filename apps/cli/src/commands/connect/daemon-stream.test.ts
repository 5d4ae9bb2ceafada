import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonState } from '@blitz/client';
import { VERSION } from '../../version.js';
import { openDaemonStream } from './daemon-stream.js';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A daemon from before the lines transport: it answers the upgrade as a plain GET /mcp. */
async function oldDaemon(version: string): Promise<DaemonState> {
  server = http.createServer((_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: no session; send initialize first' }, id: null }));
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
    await expect(openDaemonStream(state, new URLSearchParams())).rejects.toThrow(/^the daemon refused the connection \(HTTP 400\): Bad Request: no session; send initialize first$/);
  });
});
