import type { Clock } from '@blitz/clock';
import { withDeadline } from '../connection/deadline.js';
import type { ServerConnection } from '../connection/server-connection.js';

/**
 * The servers a listing asks, started first (MCP-10). With `waitMs` ([hub] list_wait_ms),
 * those ready within it: the others keep starting and join through the catalog event (clients
 * hear `list_changed`); one whose last start failed less than a pause ago is neither waited
 * for nor started again by a listing until then. A server the catalog cache answers for
 * (`cache.answers`) counts as listed and is not waited for; one not started yet is handed to
 * `cache.startSoon`, which starts it after this answer. Without `waitMs`, every offered server.
 */
export interface CacheAnswers {
  answers(c: ServerConnection): boolean;
  /** Stopped to save memory (issue 32.1): answered for, and neither waited for nor started by a listing. */
  resting?(c: ServerConnection): boolean;
  startSoon(c: ServerConnection): void;
}

const NO_CACHE: CacheAnswers = { answers: () => false, startSoon: () => undefined };

export async function listWait(
  offered: ServerConnection[],
  waitMs: number | undefined,
  clock: Clock,
  cache: CacheAnswers = NO_CACHE,
): Promise<ServerConnection[]> {
  const resting = (c: ServerConnection) => cache.answers(c) && (cache.resting?.(c) ?? false);
  if (waitMs === undefined) {
    await Promise.allSettled(offered.filter((c) => !resting(c)).map((c) => c.tools()));
    return offered;
  }
  const asked = offered.filter((c) => c.ready || !c.breaker.failedRecently());
  const listed = (c: ServerConnection) => c.ready || cache.answers(c);
  if (!asked.every((c) => c.ready)) {
    const waited: Promise<unknown>[] = [];
    for (const c of asked) {
      if (c.ready) continue;
      if (!listed(c)) waited.push(c.tools());
      else if (c.phase === 'idle' && !resting(c)) cache.startSoon(c);
    }
    await withDeadline(Promise.allSettled(waited), waitMs, clock, () => new Error('list wait over')).catch(() => undefined);
  }
  return asked.filter(listed);
}
