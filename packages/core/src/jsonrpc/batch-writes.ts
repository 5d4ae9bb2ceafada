import type { Writable } from 'node:stream';

/** Where a stream is in this turn of the event loop: one write has left at once, or writes are held. */
type Turn = 'wrote' | 'corked';

const turns = new WeakMap<Writable, Turn>();

/**
 * Call before each write of a message. The first write of a turn of the event loop leaves at
 * once (a lone call's message waits for nothing); those after it in the same turn (answers to
 * a burst of requests) are held until the end of the turn and leave together, in one system
 * call rather than one each.
 */
export function batchWrites(stream: Writable): void {
  const turn = turns.get(stream);
  if (turn === 'corked') return;
  if (turn === 'wrote') {
    turns.set(stream, 'corked');
    stream.cork();
    return;
  }
  turns.set(stream, 'wrote');
  setImmediate(() => {
    if (turns.get(stream) === 'corked') stream.uncork();
    turns.delete(stream);
  });
}
