import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBody, type Body } from './read-body.js';

const MAX = 64;

/** What the server saw of each request: the body read, whether the request had ended by then, and its end. */
interface Seen {
  body: Body;
  endedWhenRead: boolean;
  ended: Promise<unknown>;
}

let server: http.Server;
let port: number;
const seen: Array<(seen: Seen) => void> = [];
/** Resolves when the server has the request's head (its body may still be on its way). */
const headReceived: Array<() => void> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    headReceived.shift()?.();
    const ended = once(req, 'end');
    void readBody(req, MAX).then((body) => {
      seen.shift()?.({ body, endedWhenRead: req.readableEnded, ended });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Sends a POST written by `write`; what the server read of it, once answered. */
async function send(headers: http.OutgoingHttpHeaders, write: (req: http.ClientRequest) => Promise<void> | void): Promise<Seen> {
  const result = new Promise<Seen>((resolve) => seen.push(resolve));
  const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers, agent });
  const answered = once(req, 'response').then(async ([res]) => {
    (res as http.IncomingMessage).resume();
    await once(res as http.IncomingMessage, 'end');
  });
  await write(req);
  await answered;
  return result;
}

describe('readBody', () => {
  it('takes a body that came whole with its head from the buffer, before its end event, and the request still ends', async () => {
    const text = '{"jsonrpc":"2.0","id":1,"method":"ping","note":"é"}';
    const first = await send({ 'content-length': Buffer.byteLength(text) }, (req) => void req.end(text));
    expect(first.body).toEqual({ text });
    expect(first.endedWhenRead).toBe(false);
    await first.ended;
    // The connection serves the next request as ever.
    const second = await send({ 'content-length': 2 }, (req) => void req.end('{}'));
    expect(second.body).toEqual({ text: '{}' });
  });

  it('waits for a body that comes after its head', async () => {
    let headIn!: () => void;
    const received = new Promise<void>((resolve) => (headIn = resolve));
    headReceived.push(headIn);
    const result = await send({ 'content-length': 7 }, async (req) => {
      req.write('{"a":');
      req.flushHeaders();
      await received;
      req.end('1}');
    });
    expect(result.body).toEqual({ text: '{"a":1}' });
    expect(result.endedWhenRead).toBe(true);
  });

  it('reads a chunked body by its events', async () => {
    const result = await send({ 'transfer-encoding': 'chunked' }, (req) => {
      req.write('[1,');
      req.end('2]');
    });
    expect(result.body).toEqual({ text: '[1,2]' });
  });

  it.each([
    ['with its length', { 'content-length': MAX + 1 }],
    ['chunked', { 'transfer-encoding': 'chunked' }],
  ])('gives only the size of a body past the limit (%s)', async (_, headers) => {
    const result = await send(headers, (req) => void req.end('x'.repeat(MAX + 1)));
    expect(result.body).toEqual({ tooLarge: MAX + 1 });
  });
});
