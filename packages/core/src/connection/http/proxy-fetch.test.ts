import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect as netConnect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RestartableServer } from '../../../../../test/fixtures/http/restartable-server.mjs';
import { connectHttp } from './connect-http.js';
import { createProxyFetch, type ProxyFetch } from './proxy-fetch.js';
import { serverConfig } from '../../testing/server-config.js';

/** A forward proxy on 127.0.0.1 that records where it was asked to go, tunnelled (CONNECT) or not. */
async function startProxy(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const upstream = httpRequest(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = netConnect(Number(port), host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length)
    await closers
      .pop()?.()
      .catch(() => {});
});

async function setup(): Promise<{ target: RestartableServer; proxy: Awaited<ReturnType<typeof startProxy>> }> {
  const target = await startServer();
  closers.push(() => target.close());
  const proxy = await startProxy();
  closers.push(() => proxy.close());
  return { target, proxy };
}

function track(proxyFetch: ProxyFetch): ProxyFetch {
  closers.push(() => proxyFetch.close());
  return proxyFetch;
}

describe('createProxyFetch', () => {
  it('goes through HTTP_PROXY', async () => {
    const { target, proxy } = await setup();
    const { fetch } = track(createProxyFetch({ httpProxy: proxy.url }));
    const stats = await fetch(`http://127.0.0.1:${target.port}/stats`);
    expect(stats.status).toBe(200);
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]).toContain(`127.0.0.1:${target.port}`);
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    const { target, proxy } = await setup();
    const { fetch } = track(createProxyFetch({ httpProxy: proxy.url, noProxy: '127.0.0.1' }));
    expect((await fetch(`http://127.0.0.1:${target.port}/stats`)).status).toBe(200);
    expect(proxy.seen).toEqual([]);
  });

  it('carries a whole MCP session, SSE stream included', async () => {
    const { target, proxy } = await setup();
    const previous = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxy.url;
    try {
      const link = await connectHttp(
        serverConfig('proxied', { transport: { kind: 'http', url: target.url, headers: {} }, sandbox: false }),
        { deadlineMs: 10_000, capabilities: {} },
      );
      closers.push(() => link.close());
      const result = await link.client.callTool({ name: 'echo', arguments: { text: 'via proxy' } });
      expect(result.content).toEqual([{ type: 'text', text: 'via proxy' }]);
    } finally {
      if (previous === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = previous;
    }
    expect(proxy.seen.length).toBeGreaterThan(0);
  });
});
