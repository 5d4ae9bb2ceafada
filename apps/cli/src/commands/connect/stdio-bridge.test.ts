import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { DaemonState } from '@blitz/client';
import { LineLink } from './line-link.js';
import { StdioBridge } from './stdio-bridge.js';

const STATE: DaemonState = { pid: 1, port: 1, token: 't', version: '0', startedAt: '' };

/**
 * A bridge between two pairs of in-memory streams: the test writes the client's stdin and
 * reads its stdout, and plays the daemon at the other end, seeing each write as it was made.
 */
async function bridged(bounds = { maxMessageBytes: 1 << 20, maxDepth: 64 }) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const toDaemon = new PassThrough();
  const fromDaemon = new PassThrough();
  const daemonWrites: string[] = [];
  const clientWrites: string[] = [];
  toDaemon.on('data', (d: Buffer) => daemonWrites.push(d.toString()));
  stdout.on('data', (d: Buffer) => clientWrites.push(d.toString()));
  let opened = 0;
  const bridge = new StdioBridge({
    client: new LineLink({ input: stdin, output: stdout }, { maxLineBytes: bounds.maxMessageBytes, halfOpen: true }),
    daemon: async () => STATE,
    open: async () => {
      opened++;
      return new LineLink({ input: fromDaemon, output: toDaemon }, { maxLineBytes: Number.POSITIVE_INFINITY });
    },
    query: new URLSearchParams(),
    ...bounds,
    log: (message) => clientWrites.push(`log: ${message}`),
  });
  bridge.start();
  // The client's initialize opens the connection; its answer comes back.
  stdin.write('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}\n');
  await expect.poll(() => daemonWrites.length).toBe(1);
  fromDaemon.write('{"jsonrpc":"2.0","id":0,"result":{}}\n');
  await expect.poll(() => clientWrites.length).toBe(1);
  daemonWrites.length = clientWrites.length = 0;
  return { bridge, stdin, toDaemon, fromDaemon, daemonWrites, clientWrites, opened: () => opened };
}

const call = (id: number | string) =>
  `{"method":"tools/call","params":{"name":"echo","arguments":{"text":"é \\u00e9"}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;

describe('StdioBridge', () => {
  it("passes a chunk of the client's requests to the daemon in one write, byte for byte, and the daemon's answers back the same way", async () => {
    const { daemonWrites, clientWrites, stdin, fromDaemon } = await bridged();
    const requests = `${call(1)}\n${call(2)}\r\n{"jsonrpc":"2.0","id":"three","method":"ping"}\n`;
    stdin.write(requests);
    expect(daemonWrites).toEqual([requests]);
    const answers =
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"\\u00e9"}]}}\n{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}}\n{"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n';
    fromDaemon.write(answers);
    expect(clientWrites).toEqual([answers]);
  });

  it('a line in another shape is read whole and written in its place: the runs around it keep their bytes and the order holds', async () => {
    const { daemonWrites, stdin } = await bridged();
    const spaced = '{ "jsonrpc" : "2.0", "id" : 5, "method" : "ping" }';
    const escaped = call('a"b');
    stdin.write(
      `${call(4)}\n${spaced}\n${call(6)}\n${escaped}\n{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}\n`,
    );
    expect(daemonWrites).toEqual([
      `${call(4)}\n`,
      '{"jsonrpc":"2.0","id":5,"method":"ping"}\n',
      `${call(6)}\n`,
      `${JSON.stringify(JSON.parse(escaped))}\n`,
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}\n',
    ]);
  });

  it('stops reading the client while the daemon has not taken what was written, and goes on once it has', async () => {
    const { stdin, toDaemon, daemonWrites } = await bridged();
    toDaemon.pause();
    const many = `${call(1)}\n`.repeat(400);
    stdin.write(many);
    expect(stdin.isPaused()).toBe(true);
    toDaemon.resume();
    await expect.poll(() => stdin.isPaused()).toBe(false);
    expect(daemonWrites.join('')).toBe(many);
  });

  it('a line that is not a message is refused to the client and never reaches the daemon', async () => {
    const { daemonWrites, clientWrites, stdin } = await bridged();
    stdin.write(`not json\n${call(7)}\n`);
    expect(clientWrites).toEqual([
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: a line that is not JSON"}}\n',
    ]);
    expect(daemonWrites).toEqual([`${call(7)}\n`]);
  });

  it('a line read whole that nests too deep, or one past the size bound, is refused to the client and never reaches the daemon', async () => {
    const { daemonWrites, clientWrites, stdin } = await bridged({ maxMessageBytes: 200, maxDepth: 3 });
    stdin.write(`{ "jsonrpc": "2.0", "id": 1, "method": "x", "params": {"a":{"b":{"c":{}}}} }\n`);
    stdin.write(`{"method":"tools/call","params":{"text":"${'y'.repeat(300)}"},"jsonrpc":"2.0","id":2}\n${call(3)}\n`);
    expect(clientWrites.map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.stringMatching(/deeper than 3 levels/) } },
      { jsonrpc: '2.0', id: 2, error: { code: -32600, message: expect.stringMatching(/more than the limit of 200 bytes/) } },
    ]);
    expect(daemonWrites).toEqual([`${call(3)}\n`]);
  });

  it('when the daemon is lost, each request in flight on either path gets an error under its own id', async () => {
    const { clientWrites, stdin, fromDaemon } = await bridged();
    stdin.write(`${call(8)}\n${call('x"y')}\n`);
    fromDaemon.write('{"jsonrpc":"2.0","id":8,"result":{}}\n');
    stdin.write(`${call(9)}\n`);
    clientWrites.length = 0;
    fromDaemon.end();
    await expect.poll(() => clientWrites.length).toBe(2);
    expect(clientWrites.map((line) => JSON.parse(line).id)).toEqual(['x"y', 9]);
    expect(clientWrites.every((line) => /may or may not have run/.test(line))).toBe(true);
  });

  it('when the client ends its input, the bridge waits for what is in flight, then closes', async () => {
    const { bridge, clientWrites, stdin, fromDaemon } = await bridged();
    let done = false;
    void bridge.done.then(() => (done = true));
    stdin.end(`${call(10)}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    fromDaemon.write('{"jsonrpc":"2.0","id":10,"result":{}}\n');
    await bridge.done;
    expect(clientWrites).toEqual(['{"jsonrpc":"2.0","id":10,"result":{}}\n']);
  });
});
