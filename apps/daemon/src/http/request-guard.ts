import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { BlitzError } from '@blitz/core';
import { CSRF_HEADER, type PageSession, type PageSessions } from '../settings-page/page-sessions.js';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];
const SAFE_METHODS = ['GET', 'HEAD'];

/** What the guards read of a request: its method and headers (Node's request is one). */
export interface RequestHead {
  method?: string | undefined;
  headers: IncomingHttpHeaders;
}

/** Who a request comes from: a holder of the bearer token (CLI, tray, clients), or the settings page. */
export type Caller = { kind: 'token' } | { kind: 'page'; session: PageSession } | { kind: 'open' };

/**
 * The daemon's guard of every request: its Host and Origin (DNS rebinding, cross-site
 * requests), its bearer token, or the settings page's session. One a daemon: it owns what every
 * request would otherwise make again (the token's bytes, the allowed Hosts and Origins of its port).
 */
export class RequestGuard {
  /** The token of daemon.json, as bytes to compare in constant time. */
  readonly #token: Buffer;
  /** The Hosts and Origins that name a daemon on `port`, made once for the port it listens on. */
  #allowed: { port: number; hosts: ReadonlySet<string>; origins: ReadonlySet<string> } | undefined;

  constructor(token: string) {
    this.#token = Buffer.from(token);
  }

  /**
   * Every request must name this daemon as its Host (DNS rebinding) and come from no foreign
   * Origin (cross-site requests from a browser).
   */
  checkHostAndOrigin(req: RequestHead, port: number): void {
    const allowed = this.#allowedFor(port);
    const host = req.headers.host ?? '';
    if (!allowed.hosts.has(host) && !allowed.hosts.has(host.toLowerCase()))
      throw new BlitzError('PERMISSION_DENIED', `refused: Host ${JSON.stringify(host)} is not this daemon`, { reason: 'FOREIGN_HOST' });
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.origins.has(origin.toLowerCase())) {
      throw new BlitzError('PERMISSION_DENIED', `refused: requests from ${origin} are not allowed`, { reason: 'FOREIGN_ORIGIN' });
    }
  }

  /**
   * Host and Origin checked, and the bearer token of daemon.json carried — except for
   * `GET /v1/health` (`open`), which a daemon of another home asks to learn who holds a port.
   */
  guard(req: RequestHead, port: number, opts: { open?: boolean } = {}): void {
    this.checkHostAndOrigin(req, port);
    if (!opts.open && !this.#bearerMatches(req.headers.authorization)) throw badToken();
  }

  /**
   * A control-API request: Host and Origin checked, then the bearer token — or, without an
   * Authorization header, nothing for an `open` request, else the settings page's session cookie, and for a request that changes
   * something also the session's CSRF token in its header.
   */
  authorize(req: RequestHead, port: number, sessions: PageSessions, opts: { open?: boolean } = {}): Caller {
    this.checkHostAndOrigin(req, port);
    if (req.headers.authorization !== undefined) {
      if (!this.#bearerMatches(req.headers.authorization)) throw badToken();
      return { kind: 'token' };
    }
    if (opts.open) return { kind: 'open' };
    const session = sessions.fromCookie(req.headers.cookie);
    if (!session) throw badToken();
    if (!SAFE_METHODS.includes(req.method ?? '') && !sessions.csrfMatches(session, req.headers[CSRF_HEADER])) {
      throw new BlitzError('PERMISSION_DENIED', `refused: a change from the settings page must carry its ${CSRF_HEADER} header`, {
        reason: 'BAD_CSRF_TOKEN',
      });
    }
    return { kind: 'page', session };
  }

  #allowedFor(port: number): { hosts: ReadonlySet<string>; origins: ReadonlySet<string> } {
    if (this.#allowed?.port !== port) {
      const hosts = LOOPBACK_HOSTS.map((h) => `${h}:${port}`);
      this.#allowed = { port, hosts: new Set(hosts), origins: new Set(hosts.map((h) => `http://${h}`)) };
    }
    return this.#allowed;
  }

  #bearerMatches(header: string | undefined): boolean {
    const match = /^Bearer (.+)$/i.exec(header ?? '');
    if (!match) return false;
    const given = Buffer.from(match[1]!);
    return given.length === this.#token.length && crypto.timingSafeEqual(given, this.#token);
  }
}

function badToken(): BlitzError {
  return new BlitzError('UNAUTHENTICATED', 'missing or wrong bearer token (see $BLITZ_HOME/state/token)', { reason: 'BAD_TOKEN' });
}
