// How the HTTP floors (canned-http.mjs, http-relay.mjs) answer a POST, so bench/mcp-floors.mjs
// can ask whether another shape of answer, or less HTTP machinery, would bring a client's
// call nearer the canned floor. Every shape is one the streamable HTTP transport allows.
// `--answer=SHAPE` picks one (default `json`, what the floors have always measured):
// - json: the answer as JSON once it is there, head and body in one write (chunked when
//   `chunked`, as canned-http.mjs has always answered; with its content-length otherwise, as
//   http-relay.mjs and the hub answer);
// - early-json: the head (200, application/json) as soon as the request is on its way to the
//   server, the JSON body when the answer is there;
// - sse: the answer as one SSE event once it is there;
// - early-sse: the same with an SSE head (200, text/event-stream), then the event;
// - minimal: `json`, but on a bare TCP server with an HTTP/1.1 reader of our own in place of
//   node:http: enough for the SDK client's POSTs (a content-length body, keep-alive), nothing
//   more — what node:http's own machinery costs, not an endpoint anyone should ship.
import http from 'node:http';
import net from 'node:net';
import { readBody } from '../apps/daemon/dist/wire/read-body.js';

export const SHAPES = ['json', 'early-json', 'sse', 'early-sse', 'minimal'];

/** `--answer=SHAPE` from `argv` (taken out of it), or `json`. */
export function shapeFrom(argv) {
  const at = argv.findIndex((a) => a.startsWith('--answer='));
  const shape = at < 0 ? 'json' : argv.splice(at, 1)[0].slice('--answer='.length);
  if (!SHAPES.includes(shape)) throw new Error(`--answer=${shape}: one of ${SHAPES.join(', ')}`);
  return shape;
}

const SSE = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/**
 * An HTTP endpoint on 127.0.0.1 answering POSTs in `shape`; prints {"port": N} once listening.
 * `onPost(body, message, reply)` gets each POST's body and its JSON; for a request, it calls
 * `reply(line)` with the answer's JSON once the answer is there (at once, or later). A
 * notification is answered 202 before `onPost` sees it.
 */
export function serve(shape, { sessionId, chunked = false }, onPost) {
  const server = shape === 'minimal' ? minimalServer(sessionId, onPost) : nodeServer(shape, { sessionId, chunked }, onPost);
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
  return server;
}

function nodeServer(shape, { sessionId, chunked }, onPost) {
  const early = shape === 'early-json' || shape === 'early-sse';
  const head = { ...(shape.endsWith('sse') ? SSE : { 'content-type': 'application/json' }), 'mcp-session-id': sessionId };
  return http.createServer(async (req, res) => {
    if (req.method !== 'POST') return req.resume().on('end', () => res.writeHead(405).end());
    // The body as the daemon reads it (from the request's buffer when it came with its head):
    // the relay pays no more for it than the hub does.
    const body = (await readBody(req, 4 * 1024 * 1024)).text;
    const message = JSON.parse(body);
    if (message.id === undefined) {
      res.writeHead(202, { 'mcp-session-id': sessionId }).end();
      return onPost(body, message, () => undefined);
    }
    onPost(body, message, (line) => {
      if (shape === 'json')
        return res.writeHead(200, { ...head, ...(chunked ? {} : { 'content-length': Buffer.byteLength(line) }) }).end(line);
      if (!res.headersSent) res.writeHead(200, head);
      res.end(shape.endsWith('sse') ? `event: message\ndata: ${line}\n\n` : line);
    });
    // Once the request is on its way to the server, so the head does not delay it.
    if (early && !res.headersSent) res.writeHead(200, head).flushHeaders();
  });
}

function minimalServer(sessionId, onPost) {
  return net.createServer((socket) => {
    socket.setNoDelay(true);
    let pending = Buffer.alloc(0);
    socket.on('data', (data) => {
      pending = pending.length ? Buffer.concat([pending, data]) : data;
      for (;;) {
        const headEnd = pending.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = pending.subarray(0, headEnd).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < headEnd + 4 + length) return;
        const body = pending.subarray(headEnd + 4, headEnd + 4 + length).toString();
        pending = pending.subarray(headEnd + 4 + length);
        if (!head.startsWith('POST ')) {
          socket.write('HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n');
          continue;
        }
        const message = JSON.parse(body);
        if (message.id === undefined) {
          socket.write(`HTTP/1.1 202 Accepted\r\nmcp-session-id: ${sessionId}\r\ncontent-length: 0\r\n\r\n`);
          onPost(body, message, () => undefined);
          continue;
        }
        onPost(body, message, (line) =>
          socket.write(
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nmcp-session-id: ${sessionId}\r\ncontent-length: ${Buffer.byteLength(line)}\r\n\r\n${line}`,
          ),
        );
      }
    });
    socket.on('error', () => socket.destroy());
  });
}
