import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { HEADER_MISMATCH, METHOD_NOT_FOUND, TASK_METHODS, UNSUPPORTED_VERSION, type Redactor } from '@blitz/core';
import type { Clock } from '@blitz/clock';
import type { HubSession } from '../hub-session.js';
import { RedactingTransport } from '../redacting-transport.js';
import { markModern } from '../session-era.js';
import { keepAlive } from '../sse-keep-alive.js';
import type { InputWaits } from './input-waits.js';
import { ModernExchange, type HeldCall, type ModernSink } from './modern-exchange.js';
import { checkModernRequest, checkParamHeaders } from './modern-request.js';
import { retryOf } from './modern-retry.js';

const SSE_HEAD = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

/** Errors the revision answers with 400 on HTTP (and -32601 with 404), whoever raised them. */
const BAD_REQUEST = new Set([HEADER_MISMATCH, -32021, UNSUPPORTED_VERSION]);

/**
 * One modern (2026-07-28) request on `/mcp`: checked (modern-request.ts), then served by a
 * hub session of its own, made for it and ended with it (`open` gives it; closing its
 * exchange ends it). The answer is plain JSON, or SSE once a notification of the request
 * (progress, a log message it asked for) must go first; a stream the client closes before the
 * answer cancels the request. A call that asks its client for input (`input_required`) keeps
 * its session past its answer, held in `waits` until the client's retry resumes it there.
 */
export async function serveModernPost(
  req: IncomingMessage,
  res: ServerResponse,
  request: JSONRPCRequest,
  /** The request's hub session; `listening`, for a `subscriptions/listen`, joins the sessions that hear of changes. */
  open: (listening?: Transport) => Promise<{ hub: HubSession; ended(): void }>,
  { redactor, waits, clock, task }: ModernPostOptions,
): Promise<void> {
  const checked = checkModernRequest(request, req.headers);
  if ('refused' in checked) return json(res, checked.refused.status, { jsonrpc: '2.0', id: request.id, error: checked.refused.error });
  const { meta } = checked;
  if (TASK_METHODS.has(request.method)) {
    const answer = await task(request, meta.capabilities);
    return json(res, statusOf(answer), answer);
  }
  const retry = retryOf(request, waits);
  if (retry.kind === 'refused') return json(res, 200, { jsonrpc: '2.0', id: request.id, error: retry.error });
  if (retry.kind === 'resume') {
    const { exchange, id } = retry.held;
    const mismatch = checkParamHeaders(request, req.headers, exchange.paramHeaders);
    if (mismatch) return json(res, mismatch.status, { jsonrpc: '2.0', id: request.id, error: mismatch.error });
    return answerOn(res, exchange, id, (sink) => exchange.resume(id, request, sink));
  }
  const exchange: ModernExchange = new ModernExchange({ waits, onDone: () => void exchange.close() });
  const listening = request.method === 'subscriptions/listen';
  const { hub, ended } = await open(listening ? exchange : undefined);
  exchange.onclose = ended;
  exchange.paramHeaders = (tool) => hub.paramHeaders(tool);
  // Checked against the tools as this session lists them, so once it is open; it ends with the answer.
  const mismatch = checkParamHeaders(request, req.headers, exchange.paramHeaders);
  if (mismatch) {
    json(res, mismatch.status, { jsonrpc: '2.0', id: request.id, error: mismatch.error });
    return await exchange.close();
  }
  hub.waiting = (id) => exchange.waiting(id);
  markModern(hub.server);
  await hub.server.connect(hub.transport(new RedactingTransport(exchange, redactor)));
  try {
    if (request.method === 'server/discover') {
      return json(res, 200, { jsonrpc: '2.0', id: request.id, result: await exchange.discover(meta) });
    }
    if (listening) {
      res.writeHead(200, SSE_HEAD);
      res.flushHeaders();
      keepAlive(res, clock);
      return await new Promise<void>((resolve) => {
        res.on('close', () => resolve());
        void exchange.listen(request, meta, {
          notify: (message) => res.write(event(message)),
          answer: (message) => res.end(event(message)),
        });
      });
    }
    await answerOn(res, exchange, request.id, (sink) => void exchange.request(request, meta, sink));
  } finally {
    if (!exchange.holding) await exchange.close();
  }
}

export interface ModernPostOptions {
  redactor: Redactor;
  waits: InputWaits<HeldCall>;
  clock: Clock;
  /** A `tasks/get`, `tasks/update` or `tasks/cancel`: answered by the task's server, with no hub session (task-requests.ts). */
  task(request: JSONRPCRequest, capabilities: Record<string, unknown>): Promise<JSONRPCMessage>;
}

/** A request's notifications and answer on its HTTP response (JSON, or SSE once a notification comes first); a closed stream cancels call `id`. */
function answerOn(
  res: ServerResponse,
  exchange: ModernExchange,
  id: JSONRPCRequest['id'],
  start: (sink: ModernSink) => void,
): Promise<void> {
  return new Promise<void>((resolve) => {
    let sse = false;
    let answered = false;
    res.on('close', () => {
      if (!answered) exchange.cancel(id);
      resolve();
    });
    start({
      notify: (message) => {
        if (!sse) {
          sse = true;
          res.writeHead(200, SSE_HEAD);
        }
        res.write(event(message));
      },
      answer: (message) => {
        answered = true;
        if (sse) res.end(event(message));
        else json(res, statusOf(message), message);
        resolve();
      },
    });
  });
}

/** The HTTP status of a JSON answer: what the revision names for its errors, else 200. */
function statusOf(message: JSONRPCMessage): number {
  if (!('error' in message)) return 200;
  if (message.error.code === METHOD_NOT_FOUND) return 404;
  return BAD_REQUEST.has(message.error.code) ? 400 : 200;
}

function event(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}
