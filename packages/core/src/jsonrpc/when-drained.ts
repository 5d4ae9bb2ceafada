import type { Writable } from 'node:stream';

/** Calls `then` once, when `stream` has drained what was written past its high-water mark, or has closed. */
export function whenDrained(stream: Writable, then: () => void): void {
  const done = () => {
    stream.off('drain', done);
    stream.off('close', done);
    then();
  };
  stream.on('drain', done);
  stream.on('close', done);
}
