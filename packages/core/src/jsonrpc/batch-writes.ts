import type { Writable } from 'node:stream';

const corked = new WeakSet<Writable>();

/**
 * Holds a stream's writes until the end of this turn of the event loop, so the messages of
 * one turn (answers to a burst of requests) leave in one system call rather than one each.
 */
export function batchWrites(stream: Writable): void {
  if (corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  setImmediate(() => {
    corked.delete(stream);
    stream.uncork();
  });
}
