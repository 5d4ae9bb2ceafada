import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { batchWrites } from './batch-writes.js';

/** A stream that records each write it is handed: one entry per system call a socket would make. */
function recorder() {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      calls.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      calls.push(chunks.map((c) => (c.chunk as Buffer).toString()));
      done();
    },
  });
  return { stream, calls };
}

describe('batchWrites', () => {
  it('the writes of one turn leave together, at the end of it; the next turn starts a new batch', async () => {
    const { stream, calls } = recorder();
    for (const line of ['a\n', 'b\n', 'c\n']) {
      batchWrites(stream);
      stream.write(line);
    }
    expect(calls).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([['a\n', 'b\n', 'c\n']]);
    batchWrites(stream);
    stream.write('d\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([['a\n', 'b\n', 'c\n'], ['d\n']]);
  });
});
