import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Every request must name this daemon as its Host (DNS rebinding), come from no foreign
 * Origin (cross-site requests from a browser), and carry the bearer token of daemon.json —
 * except `GET /v1/health` (`open`), which a daemon of another home asks to learn who holds a port.
 */
export function guardRequest(req: IncomingMessage, port: number, token: string, opts: { open?: boolean } = {}): void {
  const allowed = LOOPBACK_HOSTS.map((h) => `${h}:${port}`);
  const host = req.headers.host ?? '';
  if (!allowed.includes(host.toLowerCase())) throw new HttpError(403, 'PERMISSION_DENIED', `refused: Host ${JSON.stringify(host)} is not this daemon`, 'FOREIGN_HOST');
  const origin = req.headers.origin;
  if (origin !== undefined && !allowed.map((h) => `http://${h}`).includes(origin.toLowerCase())) {
    throw new HttpError(403, 'PERMISSION_DENIED', `refused: requests from ${origin} are not allowed`, 'FOREIGN_ORIGIN');
  }
  if (!opts.open && !bearerMatches(req.headers.authorization, token)) {
    throw new HttpError(401, 'UNAUTHENTICATED', 'missing or wrong bearer token (see $BLITZ_HOME/state/token)', 'BAD_TOKEN');
  }
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
