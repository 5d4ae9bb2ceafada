import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { BlitzError, type Redactor } from '@blitz/core';
import { MCP_LINES_PROTOCOL } from '@blitz/client';
import type { HubEndpoint } from '../hub/hub-endpoint.js';
import { refuse } from '../hub/http-session-transport.js';
import type { Logger } from '../log/index.js';
import { defaultPageDir } from '../settings-page/page-files.js';
import type { PageSessions } from '../settings-page/page-sessions.js';
import { servePage } from '../settings-page/serve-page.js';
import { errorAnswer } from '../wire/error-answer.js';
import { LocalListener } from './local-listener.js';
import { bodyBytes, JsonBytes, stillMatches } from './json-bytes.js';
import { readBody } from '../wire/read-body.js';
import { RequestGuard } from './request-guard.js';
import { MAX_BODY_BYTES, type ApiRequest, type Router } from './router.js';

export interface DaemonServerOptions {
  /** The bearer token of daemon.json. */
  token: string;
  /** The control API. */
  api: Router;
  hub: HubEndpoint;
  pageSessions: PageSessions;
  /** The built settings page (default: `@blitz/settings`'s dist). */
  settingsPageDir?: string | undefined;
  /** What every answer passes through: secrets never leave in an answer (MCP-42). */
  redactor: Redactor;
  log: Logger;
}

/**
 * The daemon's HTTP side on loopback: `/settings/…` (the settings page), `/mcp` (the hub,
 * streamable HTTP or upgraded to lines) and the control API, each guarded as it needs.
 */
export class DaemonServer {
  readonly #opts: DaemonServerOptions;
  readonly #server: http.Server;
  /** Host, Origin and token checks, with what they make once for this daemon's token and port. */
  readonly #guard: RequestGuard;
  readonly #local = new LocalListener(
    (socket) => this.#server.emit('connection', socket),
    (err) =>
      this.#opts.log.warn('the local socket could not take a connection; it goes on listening, and the loopback port serves as before', {
        error: err.message,
      }),
  );
  #port = 0;

  constructor(opts: DaemonServerOptions) {
    this.#opts = opts;
    this.#guard = new RequestGuard(opts.token);
    this.#server = http.createServer((req, res) => void this.#handle(req, res));
    this.#server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.#upgrade(req, socket, head));
  }

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Listens on 127.0.0.1; the port it got (`port` 0 picks a free one). Rejects with the listen error. */
  async listen(port: number): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, '127.0.0.1', () => resolve());
    });
    this.#port = (this.#server.address() as AddressInfo).port;
    return this.#port;
  }

  /** Listens on a local socket too (`daemonSocketPath`); rejects with the listen error. */
  listenLocal(socketPath: string): Promise<void> {
    return this.#local.listen(socketPath);
  }

  /**
   * Stops taking connections; the promise settles once every connection has closed. Open
   * sessions are the hub's to end first (their streams are connections too), then
   * `closeConnections` ends whatever is left.
   */
  async close(): Promise<void> {
    await Promise.all([new Promise<void>((resolve) => this.#server.close(() => resolve())), this.#local.close()]);
  }

  closeConnections(): void {
    this.#server.closeAllConnections();
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      const target = req.url ?? '/';
      // /mcp's requests are the hot path: known by their target alone, with no URL built for them.
      if (isMcpTarget(target)) return await this.#mcp(req, res, target);
      const url = new URL(target, this.url);
      if (url.pathname === '/settings' || url.pathname.startsWith('/settings/')) {
        this.#guard.checkHostAndOrigin(req, this.#port);
        return servePage(req, res, url, this.#opts.pageSessions, this.#opts.settingsPageDir ?? defaultPageDir());
      }
      if (url.pathname === '/mcp') return await this.#mcp(req, res, target);
      const answer = await this.answer({ method: req.method ?? 'GET', path: target, headers: req.headers, body: await bodyOf(req) });
      send(res, answer.status, answer.body);
    } catch (err) {
      if (res.headersSent) {
        this.#opts.log.error('request failed after its answer began', { url: req.url, error: (err as Error).message });
        res.end();
        return;
      }
      const { status, body } = this.#errorAnswer(err, 'request failed', { method: req.method, url: req.url });
      send(res, status, body);
    }
  }

  /**
   * A control-API request answered: guarded (Host, Origin, then the token or the settings
   * page's session), routed, its errors answered from the one table, secrets masked. The
   * HTTP server calls it, and in-process callers (`request`) too.
   */
  async answer(request: ApiRequest): Promise<{ status: number; body: unknown }> {
    try {
      const open = request.method === 'GET' && request.path.split('?')[0] === '/v1/health';
      const caller = this.#guard.authorize(request, this.#port, this.#opts.pageSessions, { open });
      const result = await this.#opts.api.handle(request, caller);
      // Bytes prepared ahead of time (the status) were masked when they were made; a client
      // that holds them already (its If-None-Match names their tag) is told so, with no body.
      if (result.body instanceof JsonBytes)
        return {
          status: stillMatches(request.headers['if-none-match'], result.body.etag) ? 304 : (result.status ?? 200),
          body: result.body,
        };
      return { status: result.status ?? 200, body: result.credential ? result.body : this.#opts.redactor.redactValue(result.body) };
    } catch (err) {
      return this.#errorAnswer(err, 'request failed', { method: request.method, url: request.path });
    }
  }

  /**
   * The control API in-process, as `fetch` would reach it (Hono's `app.request()`): for tests,
   * and for a `BlitzClient` given it as its `fetch`. The settings page and `/mcp` stream, so
   * they are served over a socket only.
   */
  readonly request = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? new Request(input, init) : new Request(new URL(input, this.url), init);
    const url = new URL(request.url);
    const headers: Record<string, string> = { host: url.host };
    request.headers.forEach((value, name) => (headers[name] = value));
    const text = request.body ? await request.text() : undefined;
    const { status, body } = await this.answer({ method: request.method, path: url.pathname + url.search, headers, body: text });
    const { headers: sent, bytes } = onTheWire(status, body);
    return new Response(bytes, { status, headers: sent });
  };

  /**
   * An error as the control API answers it (status from the one table, body masked); one the
   * daemon did not mean (a 5xx) is logged with its stack, under `what` and the request's `context`.
   */
  #errorAnswer(err: unknown, what: string, context: Record<string, unknown>): { status: number; body: unknown } {
    const { status, body } = errorAnswer(err);
    if (status >= 500) this.#opts.log.error(what, { ...context, error: (err as Error).stack ?? String(err) });
    return { status, body: this.#opts.redactor.redactValue(body) };
  }

  /** `/mcp` answers in JSON-RPC, as its clients expect, refusals too. */
  async #mcp(req: http.IncomingMessage, res: http.ServerResponse, target: string): Promise<void> {
    try {
      this.#guard.guard(req, this.#port);
      await this.#opts.hub.handle(req, res, target);
    } catch (err) {
      if (res.headersSent) throw err;
      refuse(res, err);
    }
  }

  /** `/mcp` upgraded for `blitz connect`; a refusal is a plain HTTP answer before the connection closes. */
  async #upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => undefined);
    if (req.method === 'GET' && req.headers.upgrade?.toLowerCase() !== MCP_LINES_PROTOCOL) {
      // An upgrade we do not offer (h2c, websocket): a client may not insist, so the request is
      // served as plain HTTP/1.1, as it would be without our upgrade listener.
      const res = new http.ServerResponse(req);
      res.assignSocket(socket as Socket);
      res.shouldKeepAlive = false;
      res.once('finish', () => {
        res.detachSocket(socket as Socket);
        socket.end();
      });
      return this.#handle(req, res);
    }
    try {
      this.#guard.guard(req, this.#port);
      const url = new URL(req.url ?? '/', this.url);
      if (url.pathname !== '/mcp') throw new BlitzError('NOT_FOUND', `no upgrade at ${url.pathname}`, { reason: 'ENDPOINT_NOT_FOUND' });
      await this.#opts.hub.upgrade(req, socket, head, url);
    } catch (err) {
      const { status, body } = this.#errorAnswer(err, 'upgrade failed', { url: req.url });
      const text = JSON.stringify(body);
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
      );
    }
  }
}

/** `/mcp` with or without a query, as clients send it; any other spelling goes through a full URL parse. */
function isMcpTarget(target: string): boolean {
  return target === '/mcp' || target.startsWith('/mcp?');
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** An answer's headers and bytes: bytes made ahead of time carry their tag, and a 304 has no body. */
function onTheWire(status: number, body: unknown): { headers: Record<string, string>; bytes: Buffer | string | null } {
  const etag: Record<string, string> = body instanceof JsonBytes ? { etag: body.etag } : {};
  if (status === 304) return { headers: { ...JSON_HEADERS, ...etag }, bytes: null };
  const bytes = bodyBytes(body);
  return { headers: { ...JSON_HEADERS, ...etag, 'content-length': String(Buffer.byteLength(bytes)) }, bytes };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const { headers, bytes } = onTheWire(status, body);
  res.writeHead(status, headers);
  if (bytes === null) res.end();
  else res.end(bytes);
}

/** A request's body as the router takes it; none read when the request says it has none (a GET). */
async function bodyOf(req: http.IncomingMessage): Promise<ApiRequest['body']> {
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return undefined;
  const body = await readBody(req, MAX_BODY_BYTES);
  return 'tooLarge' in body ? body : body.text;
}
