import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { isBlitzError } from '../errors/blitz-error.js';
import { JsonLinesTransport } from './json-lines-transport.js';

const servers: net.Server[] = [];
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A loopback socket pair: the accepted side, for a transport, and a raw socket as its peer; both closed after each test. */
async function socketPair(): Promise<{ socket: net.Socket; peer: net.Socket }> {
  // Half-open allowed, as Node's HTTP server does for the sockets it upgrades.
  const server = net.createServer({ allowHalfOpen: true });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const peer = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
  sockets.push(peer);
  const socket = await accepted;
  sockets.push(socket);
  return { socket, peer };
}

/** A real loopback connection: the transport on the accepted side, a raw socket as its peer. */
async function connected(
  maxMessageBytes = 1024,
  head?: Buffer,
  clock?: FakeClock,
  maxDepth?: number,
): Promise<{
  transport: JsonLinesTransport;
  peer: net.Socket;
  received: JSONRPCMessage[];
  errors: Error[];
  peerLines: (count: number) => Promise<unknown[]>;
}> {
  const { socket, peer } = await socketPair();
  const transport = new JsonLinesTransport(socket, {
    maxMessageBytes,
    ...(head ? { head } : {}),
    ...(clock ? { clock } : {}),
    ...(maxDepth === undefined ? {} : { maxDepth }),
  });
  const received: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (m) => received.push(m);
  transport.onerror = (e) => errors.push(e);
  await transport.start();
  let text = '';
  peer.on('data', (d: Buffer) => (text += d.toString()));
  const lines = () => text.split('\n').filter(Boolean);
  /** The peer's lines, once it has `count` of them. */
  const peerLines = async (count: number) => {
    await until(() => lines().length >= count);
    return lines().map((l) => JSON.parse(l) as unknown);
  };
  return { transport, peer, received, errors, peerLines };
}

async function until(check: () => boolean): Promise<void> {
  await expect.poll(check, { timeout: 5_000, interval: 5 }).toBe(true);
}

describe('JsonLinesTransport', () => {
  it('with maxDepth, answers a request nested deeper with -32602 and passes nothing of it on; drops a deep notification', async () => {
    const { peer, received, errors, peerLines } = await connected(4 * 1024 * 1024, undefined, undefined, 64);
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    peer.write(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"x":${deep}}}}\n`);
    peer.write(`{"jsonrpc":"2.0","method":"notifications/x","params":{"x":${deep}}}\n`);
    peer.write('{"jsonrpc":"2.0","id":6,"method":"ping"}\n');
    const [answer] = await peerLines(1);
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32602, message: 'Invalid params: the message nests objects and arrays deeper than 64 levels; it was not passed on' },
    });
    await until(() => received.length === 1);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 6, method: 'ping' }]);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringContaining('deeper than 64 levels'),
      expect.stringContaining('deeper than 64 levels'),
    ]);
  });

  it('reads one message per line, across chunks and after the upgrade head; writes one per line', async () => {
    const head = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0",');
    const { transport, peer, received, peerLines } = await connected(1024, head);
    peer.write('"method":"notifications/initialized"}\r\n\n{"jsonrpc":"2.0","id":"a",');
    peer.write('"result":{}}\n');
    await until(() => received.length === 3);
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'a', result: {} },
    ]);
    await transport.send({ jsonrpc: '2.0', id: 1, result: { text: 'multi\nline' } });
    expect(await peerLines(1)).toEqual([{ jsonrpc: '2.0', id: 1, result: { text: 'multi\nline' } }]);
  });

  it('answers a line that is not JSON, or not JSON-RPC, and keeps the connection', async () => {
    const { received, peer, peerLines, transport } = await connected();
    peer.write('hello\n[1,2]\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await until(() => received.length === 1);
    expect(await peerLines(2)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: a line that is not JSON' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' } },
    ]);
    expect(transport.closed).toBe(false);
  });

  it('a request past the size limit is skipped and answered with its id; a response past it is only reported', async () => {
    const { transport, received, errors, peer, peerLines } = await connected(100);
    const big = 'x'.repeat(500);
    peer.write(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"text":"${big}"}}\n`);
    peer.write(`{"jsonrpc":"2.0","id":8,"result":{"text":"${big}"}}\n`);
    peer.write('{"jsonrpc":"2.0","id":9,"method":"ping"}\n');
    await until(() => received.length === 1);
    expect(received[0]).toEqual({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^a message of 5\d\d bytes is more than the limit of 100 bytes/),
      expect.stringMatching(/^a message of 5\d\d bytes/),
    ]);
    // A marker written after both were read: had the response been answered too, it would come before.
    await transport.send({ jsonrpc: '2.0', method: 'notifications/marker' });
    const answers = await peerLines(2);
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringMatching(/^a message of/) } },
      { jsonrpc: '2.0', method: 'notifications/marker' },
    ]);
  });

  it('when the peer goes, onclose fires once and a send fails saying it was not sent', async () => {
    const { transport, peer } = await connected();
    let closes = 0;
    transport.onclose = () => closes++;
    peer.destroy();
    await until(() => transport.closed);
    expect(closes).toBe(1);
    const failure = await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' }).catch((e: unknown) => e);
    expect(isBlitzError(failure) && failure.code).toBe('SERVER_UNAVAILABLE');
    await transport.close();
    expect(closes).toBe(1);
  });

  it('close flushes what was sent, then ends the connection', async () => {
    const { transport, peer } = await connected();
    let text = '';
    peer.on('data', (d: Buffer) => (text += d.toString()));
    const ended = new Promise((resolve) => peer.once('end', resolve));
    await transport.send({ jsonrpc: '2.0', id: 3, result: { last: 'x'.repeat(200_000) } });
    await transport.close();
    await ended;
    expect(JSON.parse(text.trim())).toMatchObject({ id: 3 });
  });

  it('when the peer ends its side, ours closes too: no socket is left half-open', async () => {
    const { transport, peer } = await connected();
    const peerClosed = new Promise((resolve) => peer.once('close', resolve));
    peer.end();
    await peerClosed;
    expect(transport.closed).toBe(true);
    expect(sockets[1]!.destroyed).toBe(true);
  });

  it('close does not wait for ever on a peer that stopped reading', async () => {
    const clock = new FakeClock();
    const { transport, peer } = await connected(1024, undefined, clock);
    peer.pause();
    // More than the socket buffers hold, so the end cannot be flushed while the peer does not read.
    for (let i = 0; i < 64; i++)
      void transport
        .send({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(1024 * 1024) } })
        .catch(() => undefined);
    let closed = false;
    const closing = transport.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    clock.advance(2_000);
    await closing;
    expect(transport.closed).toBe(true);
    expect(sockets[1]!.destroyed).toBe(true);
  });

  it('writes made while the peer is not reading share one wait for the drain, and all settle once it reads', async () => {
    const { transport, peer } = await connected();
    const socket = sockets[1]!;
    peer.pause();
    const big = { jsonrpc: '2.0' as const, method: 'notifications/message', params: { data: 'x'.repeat(1024 * 1024) } };
    const sends: Promise<void>[] = [];
    for (let i = 0; i < 40; i++) sends.push(transport.send(big));
    expect(socket.writableNeedDrain).toBe(true);
    // One wait for them all, not a listener a write.
    expect(socket.listenerCount('drain')).toBe(1);
    peer.resume();
    await Promise.all(sends);
    expect(socket.listenerCount('drain')).toBe(0);
  });
});
