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

function write(stream: Writable, line: string): void {
  batchWrites(stream);
  stream.write(line);
}

/** Resolves in the next turn of the event loop: after this turn's ticks and microtasks. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A promise chain `steps` microtasks long, as a call's answer takes through the hub's layers. */
async function after(steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) await Promise.resolve();
}

describe('batchWrites', () => {
  it('the writes of one turn, those of the promise chains it set off included, leave together once its microtasks have run', async () => {
    const { stream, calls } = recorder();
    let flushedBeforeNextTurn: string[][] | undefined;
    setImmediate(() => (flushedBeforeNextTurn = calls.map((c) => [...c])));
    write(stream, 'a\n');
    const chains = [after(1).then(() => write(stream, 'b\n')), after(5).then(() => write(stream, 'c\n'))];
    // Held, not written at once: the burst's other answers are still on their way.
    expect(calls).toEqual([]);
    await Promise.all(chains);
    await nextTurn();
    expect(flushedBeforeNextTurn).toEqual([['a\n', 'b\n', 'c\n']]);
    expect(calls).toEqual([['a\n', 'b\n', 'c\n']]);
  });

  it('a lone write leaves within its own turn, before the next one begins', async () => {
    const { stream, calls } = recorder();
    let seenByNextTurn: string[][] | undefined;
    setImmediate(() => (seenByNextTurn = calls.map((c) => [...c])));
    await after(2).then(() => write(stream, 'a\n'));
    await nextTurn();
    expect(seenByNextTurn).toEqual([['a\n']]);
  });

  it('each stream written in a turn takes one write of its own; a later turn is a batch of its own', async () => {
    const one = recorder();
    const two = recorder();
    write(one.stream, 'a\n');
    write(two.stream, 'x\n');
    write(one.stream, 'b\n');
    await nextTurn();
    write(one.stream, 'c\n');
    await nextTurn();
    expect(one.calls).toEqual([['a\n', 'b\n'], ['c\n']]);
    expect(two.calls).toEqual([['x\n']]);
  });

  it('a write callback runs once its batch has left', async () => {
    const { stream, calls } = recorder();
    batchWrites(stream);
    const written = new Promise<number>((resolve) => stream.write('a\n', () => resolve(calls.length)));
    expect(await written).toBe(1);
  });
});
