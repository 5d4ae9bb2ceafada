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

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchWrites', () => {
  it('the first write of a turn leaves at once; the rest of that turn leave together, at the end of it', async () => {
    const { stream, calls } = recorder();
    for (const line of ['a\n', 'b\n', 'c\n']) {
      batchWrites(stream);
      stream.write(line);
    }
    expect(calls).toEqual([['a\n']]);
    await endOfTurn();
    expect(calls).toEqual([['a\n'], ['b\n', 'c\n']]);
  });

  it('a lone write of the next turn leaves at once again', async () => {
    const { stream, calls } = recorder();
    batchWrites(stream);
    stream.write('a\n');
    await endOfTurn();
    batchWrites(stream);
    stream.write('b\n');
    expect(calls).toEqual([['a\n'], ['b\n']]);
    await endOfTurn();
    batchWrites(stream);
    stream.write('c\n');
    batchWrites(stream);
    stream.write('d\n');
    expect(calls).toEqual([['a\n'], ['b\n'], ['c\n']]);
    await endOfTurn();
    expect(calls).toEqual([['a\n'], ['b\n'], ['c\n'], ['d\n']]);
  });
});
