import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { askPortHolder } from './port-holder.js';

let server: http.Server | undefined;
let trickle: NodeJS.Timeout | undefined;

afterEach(async () => {
  clearInterval(trickle);
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A holder of a free port on 127.0.0.1 answering every request with `answer`; `asked` resolves at its first request. */
async function holder(answer: (res: http.ServerResponse) => void): Promise<{ port: number; asked: Promise<void> }> {
  let heard!: () => void;
  const asked = new Promise<void>((resolve) => (heard = resolve));
  server = http.createServer((_req, res) => {
    heard();
    answer(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, asked };
}

describe('askPortHolder', () => {
  it('names a Blitz daemon from its /v1/health answer', async () => {
    const { port } = await holder((res) =>
      res.end(JSON.stringify({ ok: true, service: 'blitz', pid: 4711, home: '/home/u/.blitz', version: '1.2.3' })),
    );
    expect(await askPortHolder(port, { clock: new FakeClock() })).toEqual({
      service: 'blitz',
      pid: 4711,
      home: '/home/u/.blitz',
      version: '1.2.3',
    });
  });

  it('gives up on a holder that streams its answer without end once the whole wait has passed, though bytes keep coming', async () => {
    const clock = new FakeClock();
    const { port, asked } = await holder((res) => {
      // A byte now and then: a socket's idle timeout never fires on it.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': still here\n\n');
      trickle = setInterval(() => res.write(': still here\n\n'), 200);
    });
    let settled = false;
    const answer = askPortHolder(port, { clock, timeoutMs: 2_000 }).finally(() => (settled = true));
    await asked;
    clock.advance(1_999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    clock.advance(1);
    expect(await answer).toBeUndefined();
  });
});
