import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BlitzClient, DaemonUnreachable } from './blitz-client.js';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function listen(handler: http.RequestListener): Promise<number> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function failure(p: Promise<unknown>): Promise<DaemonUnreachable> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DaemonUnreachable);
  return err as DaemonUnreachable;
}

describe('BlitzClient', () => {
  it('says plainly that a daemon did not answer in time, and what to do', async () => {
    const port = await listen(() => undefined);
    const err = await failure(new BlitzClient({ port, token: 't' }, { timeoutMs: 200 }).status());
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toBe(
      `the Blitz daemon at http://127.0.0.1:${port} did not answer GET /v1/status within 1s; it may be busy or stuck: see its log, or restart it (blitz daemon stop, then blitz daemon start)`,
    );
  });

  it('says plainly that nothing answers on the port', async () => {
    const port = await listen(() => undefined);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const err = await failure(new BlitzClient({ port, token: 't' }).status());
    expect(err.code).toBe('UNREACHABLE');
    expect(err.message).toBe(`cannot reach the Blitz daemon at http://127.0.0.1:${port} (ECONNREFUSED); start it with blitz daemon start`);
  });
});
