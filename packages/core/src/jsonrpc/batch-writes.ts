import type { Writable } from 'node:stream';

/** The streams corked in this turn of the event loop, to be uncorked together once its work is done. */
const corked = new Set<Writable>();

/**
 * Call before each write of a message. Writes are held from the first one of a turn of the
 * event loop until the work that turn started has run — its callbacks and every promise
 * chain they set off, not the next I/O — and then leave together, in one system call per
 * stream: a burst of answers (16 calls in flight) takes one write, not one each, and a lone
 * call's message waits only for the microtasks already under way, never for another turn.
 */
export function batchWrites(stream: Writable): void {
  if (corked.has(stream)) return;
  stream.cork();
  if (corked.size === 0) queueMicrotask(afterMicrotasks);
  corked.add(stream);
}

// A microtask queued now runs within this turn's drain of microtasks; a tick it queues runs
// once that drain is done (Node runs ticks, then microtasks, until both are empty).
function afterMicrotasks(): void {
  process.nextTick(uncorkAll);
}

function uncorkAll(): void {
  const streams = [...corked];
  corked.clear();
  for (const stream of streams) stream.uncork();
}
