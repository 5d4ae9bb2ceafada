import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BlitzError } from '../errors/blitz-error.js';
import { paramsFromQuery, type RedirectParams } from './redirect-params.js';

export interface CallbackListener {
  /** `http://127.0.0.1:<port>/callback`, the redirect URI registered and sent. */
  readonly redirectUrl: string;
  close(): Promise<void>;
}

/**
 * The local listener the browser is redirected to at the end of a sign-in, on 127.0.0.1
 * only. `onRedirect` judges each arrival and says what the browser tab shows.
 */
export async function startCallbackListener(opts: {
  port?: number;
  onRedirect(params: RedirectParams): { ok: boolean; message: string };
}): Promise<CallbackListener> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    const verdict = opts.onRedirect(paramsFromQuery(url.searchParams));
    res.writeHead(verdict.ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
    res.end(page(verdict.ok ? 'Signed in' : 'Not signed in', verdict.message));
  });
  const port = opts.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  }).catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'EADDRINUSE'
      ? new BlitzError(
          'FAILED_PRECONDITION',
          `port ${port} on 127.0.0.1 (oauth.callback_port) is in use; free it or choose another callback_port`,
          { reason: 'CALLBACK_PORT_IN_USE' },
        )
      : err;
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    redirectUrl: `http://127.0.0.1:${actual}/callback`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function page(title: string, message: string): string {
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>Blitz: ${escape(title)}</title><h1>${escape(title)}</h1><p>${escape(message)}</p>\n`;
}
