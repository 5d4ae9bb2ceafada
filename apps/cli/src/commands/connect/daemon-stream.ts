import http from 'node:http';
import type { Duplex } from 'node:stream';
import { MCP_LINES_PROTOCOL, type DaemonState } from '@blitz/client';
import { daemonVersionNote } from '../../daemon-version.js';
import { VERSION } from '../../version.js';
import { LineLink } from './line-link.js';

/**
 * The daemon's `/mcp`, upgraded to one JSON-RPC message per line: a single connection for
 * the whole session, where a POST per message would cost a request each way. Over the
 * daemon's local socket when it has one (no TCP stack either way), else over its port; a
 * socket that cannot be reached (removed, refused) falls back to the port.
 */
export async function openDaemonStream(state: DaemonState, query: URLSearchParams): Promise<LineLink> {
  const { socket, head } = await openDaemonSocket(state, query);
  // The daemon bounds what it sends (max_result_mb); its lines are taken whole.
  return new LineLink(socket, { maxLineBytes: Number.POSITIVE_INFINITY, head });
}

/** The upgraded connection itself, and the bytes read past the upgrade: for a reader of its own (tests' SDK clients). */
export async function openDaemonSocket(state: DaemonState, query: URLSearchParams): Promise<Upgraded> {
  if (state.socket !== undefined) {
    try {
      return await upgrade(state, query, { socketPath: state.socket });
    } catch (err) {
      if (!(err instanceof Unreachable)) throw err;
    }
  }
  return upgrade(state, query, { host: '127.0.0.1', port: state.port });
}

export interface Upgraded {
  socket: Duplex;
  head: Buffer;
}

/** The connection itself failed: nothing reached the daemon. */
class Unreachable extends Error {}

function upgrade(
  state: DaemonState,
  query: URLSearchParams,
  where: { socketPath: string } | { host: string; port: number },
): Promise<Upgraded> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      ...where,
      path: `/mcp?${query}`,
      // The daemon guards Host on its socket as on its port.
      headers: {
        host: `127.0.0.1:${state.port}`,
        connection: 'Upgrade',
        upgrade: MCP_LINES_PROTOCOL,
        authorization: `Bearer ${state.token}`,
      },
      agent: false,
    });
    req.once('upgrade', (_res, socket, head) => {
      socket.setNoDelay(true);
      resolve({ socket, head });
    });
    req.once('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        // A daemon from before this release answers the upgrade as a plain request.
        const stale = daemonVersionNote(state.version, VERSION);
        reject(new Error(`the daemon refused the connection (HTTP ${res.statusCode}): ${reasonOf(body)}${stale ? `; ${stale}` : ''}`));
      });
    });
    // Before any answer: a socket that is gone or refuses is unreachable, nothing was sent.
    req.once('error', (err) => reject('socketPath' in where && isUnreachable(err) ? new Unreachable(err.message) : err));
    req.end();
  });
}

function isUnreachable(err: NodeJS.ErrnoException): boolean {
  return err.code === 'ENOENT' || err.code === 'ECONNREFUSED' || err.code === 'EACCES' || err.code === 'ENOTSOCK' || err.code === 'EPERM';
}

/** The message of an error answer: the control API's `{message}`, or JSON-RPC's `{error: {message}}`. */
function reasonOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: string; error?: { message?: string } };
    return parsed.message ?? parsed.error?.message ?? body;
  } catch {
    return body.slice(0, 200);
  }
}
