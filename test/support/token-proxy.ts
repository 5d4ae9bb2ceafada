import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenProxy {
  /** `http://localhost:PORT`: the proxy's own origin, for clients that cannot send a token. */
  origin: string;
  close(): Promise<void>;
}

/**
 * A loopback front for the daemon, for a client that sends no bearer token (the conformance
 * suite's): it adds the daemon's token and maps a Host or Origin naming the proxy's port to
 * the daemon's port, so the daemon's own Host/Origin checks still judge every request. A
 * foreign Host or Origin passes unchanged — and is refused by the daemon.
 */
export async function startTokenProxy(target: { port: number; token: string }): Promise<TokenProxy> {
  let ownPort = 0;
  const mapPort = (value: string | undefined): string | undefined =>
    value?.replace(new RegExp(`^((?:https?://)?(?:localhost|127\\.0\\.0\\.1|\\[::1\\])):${ownPort}$`, 'i'), `$1:${target.port}`);
  const server = http.createServer((req, res) => {
    const headers: http.OutgoingHttpHeaders = { ...req.headers, authorization: `Bearer ${target.token}` };
    headers.host = mapPort(req.headers.host);
    if (req.headers.origin !== undefined) headers.origin = mapPort(req.headers.origin);
    const upstream = http.request({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    // A client that leaves (an SSE stream closed) ends the daemon's side too.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ownPort = (server.address() as AddressInfo).port;
  return {
    origin: `http://localhost:${ownPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
