import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { answerId, BlitzError, isRequest, looksLikeMessage, MAX_MESSAGE_DEPTH, refuseClientMessage } from '@blitz/core';
import { MAX_CLIENT_MESSAGE_BYTES } from '@blitz/client';
import { systemClock, type Clock } from '@blitz/clock';
import { rpcErrorAnswer } from '../wire/error-answer.js';
import { readBody } from '../wire/read-body.js';
import { keepAlive } from './sse-keep-alive.js';

const SUPPORTED_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);

/** The answer to one POST: plain JSON when the responses are all there is, SSE once anything else must go first. */
interface PostStream {
  res: ServerResponse;
  /** Request ids of this POST not yet answered. */
  pending: Set<RequestId>;
  /** Responses held back while the answer may still be plain JSON. */
  held: JSONRPCMessage[];
  batch: boolean;
  sse: boolean;
  open: boolean;
}

/**
 * One session of the streamable HTTP transport, server side, written for the hub's hot path:
 * Node's `http` objects directly (no web-stream conversion), JSON answers when a request
 * needs nothing streamed, SSE when progress or a server request must reach the client first,
 * and a standalone GET stream for everything not tied to a request. No resumability.
 */
export class HttpSessionTransport implements Transport {
  sessionId?: string;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** How the client shows it is still there: requests, and its event stream. */
  onActivity?: () => void;
  onStreamOpened?: () => void;
  onStreamClosed?: () => void;
  readonly #newSessionId: () => string;
  readonly #clock: Clock;
  readonly #streams = new Map<RequestId, PostStream>();
  #standalone: ServerResponse | undefined;
  #closed = false;

  /** `clock` times the keep-alive comments of the GET stream (sse-keep-alive.ts). */
  constructor(newSessionId: () => string, clock: Clock = systemClock) {
    this.#newSessionId = newSessionId;
    this.#clock = clock;
  }

  async start(): Promise<void> {}

  /** Serves one HTTP request of this session (POST, GET or DELETE on `/mcp`); a POST's body may be read already. */
  async handleRequest(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    // Past initialize, a client names the protocol version it speaks; without it, an older one is assumed.
    const version = this.sessionId === undefined ? undefined : req.headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_VERSIONS.has(String(version))) {
      return refuse(
        res,
        new BlitzError(
          'INVALID_ARGUMENT',
          `Bad Request: unsupported MCP-Protocol-Version ${String(version)} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
          { reason: 'UNSUPPORTED_PROTOCOL_VERSION' },
        ),
      );
    }
    switch (req.method) {
      case 'POST':
        return this.#post(req, res, body);
      case 'GET':
        return this.#get(res);
      case 'DELETE':
        answer(res, 200, this.#head());
        await this.close();
        return;
      default:
        res.setHeader('allow', 'GET, POST, DELETE');
        refuse(res, new BlitzError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on /mcp`));
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#closed) return;
    const answered = answerId(message);
    const isAnswer = answered !== undefined;
    const id = isAnswer ? answered : options?.relatedRequestId;
    const stream = id === undefined ? undefined : this.#streams.get(id);
    if (stream?.open) {
      this.#deliver(stream, message, isAnswer);
      return;
    }
    // Not tied to an open request: the standalone stream, if the client opened one.
    if (!isAnswer && this.#standalone) writeEvent(this.#standalone, message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // A request still open gets an answer that says what happened, never an empty one a
    // client could take for "not delivered" and send again.
    for (const stream of new Set(this.#streams.values())) {
      for (const id of [...stream.pending]) {
        this.#deliver(
          stream,
          {
            jsonrpc: '2.0',
            id,
            error: {
              code: -32000,
              message: 'the Blitz session closed (the daemon is stopping) before this request was answered; it may or may not have run',
            },
          },
          true,
        );
      }
      endStream(stream);
    }
    this.#streams.clear();
    this.#standalone?.end();
    this.#standalone = undefined;
    this.onclose?.();
  }

  async #post(req: IncomingMessage, res: ServerResponse, parsed?: unknown): Promise<void> {
    this.onActivity?.();
    let body = parsed;
    if (body === undefined) {
      try {
        body = await readJsonBody(req);
      } catch (err) {
        return refuse(res, err);
      }
    }
    const raw = Array.isArray(body) ? body : [body];
    const messages: JSONRPCMessage[] = [];
    /** Answers to malformed requests (a bad id or params, too deep): they go to this client only, and never further. */
    const refusals: JSONRPCMessage[] = [];
    // The shape only: the SDK server validates each message fully when it handles it.
    for (const item of raw) {
      if (!looksLikeMessage(item))
        return refuse(res, new BlitzError('INVALID_ARGUMENT', 'Invalid Request: not a JSON-RPC message', { reason: 'NOT_JSON_RPC' }));
      const refusal = refuseClientMessage(item, MAX_MESSAGE_DEPTH);
      if (refusal === undefined) messages.push(item);
      else if (refusal.answer) refusals.push(refusal.answer as JSONRPCMessage);
      else this.onerror?.(new Error(refusal.why));
    }
    if (messages.some((m) => isRequest(m) && m.method === 'initialize')) {
      if (this.sessionId !== undefined)
        return refuse(
          res,
          new BlitzError('INVALID_ARGUMENT', 'Invalid Request: this session is already initialized', { reason: 'ALREADY_INITIALIZED' }),
        );
      this.sessionId = this.#newSessionId();
    }
    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers } };
    const pending = new Set<RequestId>();
    for (const message of messages) if (isRequest(message)) pending.add(message.id);
    if (pending.size === 0 && refusals.length === 0) {
      answer(res, 202, this.#head());
      for (const message of messages) this.onmessage?.(message, extra);
      return;
    }
    // The refusals are answered with what the SDK server answers: held until the last of those, or all there is.
    const stream: PostStream = { res, pending, held: refusals, batch: Array.isArray(body), sse: false, open: true };
    if (pending.size === 0) {
      answer(res, 200, this.#head('content-type', 'application/json'), JSON.stringify(stream.batch ? refusals : refusals[0]));
      for (const message of messages) this.onmessage?.(message, extra);
      return;
    }
    for (const id of pending) this.#streams.set(id, stream);
    for (const message of messages) this.onmessage?.(message, extra);
    // In the same turn as the messages went on, so no close is missed; after them, so they go on first.
    res.on('close', () => {
      stream.open = false;
      for (const id of stream.pending) this.#streams.delete(id);
    });
  }

  #get(res: ServerResponse): void {
    if (this.#standalone)
      return refuse(res, new BlitzError('ALREADY_EXISTS', 'Conflict: only one stream per session', { reason: 'STREAM_OPEN' }));
    res.writeHead(200, this.#head(...SSE_HEADERS));
    res.flushHeaders();
    keepAlive(res, this.#clock);
    this.#standalone = res;
    this.onStreamOpened?.();
    res.on('close', () => {
      if (this.#standalone === res) this.#standalone = undefined;
      this.onStreamClosed?.();
    });
  }

  #deliver(stream: PostStream, message: JSONRPCMessage, isAnswer: boolean): void {
    if (isAnswer) {
      const id = (message as { id: RequestId }).id;
      stream.pending.delete(id);
      this.#streams.delete(id);
    }
    if (!stream.sse && isAnswer) {
      stream.held.push(message);
      if (stream.pending.size > 0) return;
      const payload = stream.batch ? stream.held : stream.held[0];
      answer(stream.res, 200, this.#head('content-type', 'application/json'), JSON.stringify(payload));
      stream.open = false;
      return;
    }
    if (!stream.sse) {
      // Something must reach the client before the answer: switch this POST to SSE.
      stream.sse = true;
      stream.res.writeHead(200, this.#head(...SSE_HEADERS));
      for (const held of stream.held.splice(0)) writeEvent(stream.res, held);
    }
    writeEvent(stream.res, message);
    if (stream.pending.size === 0) endStream(stream);
  }

  /** This session's header, then `more`, as one list of names and values (what `answer` takes). */
  #head(...more: string[]): string[] {
    return this.sessionId === undefined ? more : ['mcp-session-id', this.sessionId, ...more];
  }
}

const SSE_HEADERS = ['content-type', 'text/event-stream', 'cache-control', 'no-cache'];

function writeEvent(res: ServerResponse, message: JSONRPCMessage): void {
  res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

function endStream(stream: PostStream): void {
  if (!stream.open) return;
  stream.open = false;
  if (!stream.res.headersSent) stream.res.writeHead(204);
  stream.res.end();
}

/** Answers a request of `/mcp` with a JSON-RPC error; its status and code come from the one table. */
export function refuse(res: ServerResponse, err: unknown): void {
  const { status, error } = rpcErrorAnswer(err);
  answer(res, status, ['content-type', 'application/json'], JSON.stringify({ jsonrpc: '2.0', error, id: null }));
}

/**
 * A whole answer with its length (`head`: header names and values in one list): Node then
 * sends head and body in one write, where an answer of unknown length goes chunked, as several
 * buffers (one writev a call, the hot path's costliest step in the daemon's profile).
 */
function answer(res: ServerResponse, status: number, head: readonly string[], body = ''): void {
  res.writeHead(status, head.concat('content-length', String(Buffer.byteLength(body)))).end(body);
}

/** The POST body as JSON, at most 4 MB; a `BlitzError` otherwise. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req, MAX_CLIENT_MESSAGE_BYTES);
  if ('tooLarge' in body)
    throw new BlitzError(
      'PAYLOAD_TOO_LARGE',
      `Invalid Request: a body of ${body.tooLarge} bytes is more than the limit of ${MAX_CLIENT_MESSAGE_BYTES} bytes`,
    );
  try {
    return JSON.parse(body.text);
  } catch {
    throw new BlitzError('INVALID_ARGUMENT', 'Parse error: the body is not JSON', { reason: 'NOT_JSON' });
  }
}
