import type { Clock } from '@blitz/clock';
import { withDeadline } from '../connection/deadline.js';
import type { ServerConnection } from '../connection/server-connection.js';

/**
 * The servers a listing asks, started first (MCP-10). With `waitMs` ([hub] list_wait_ms),
 * those ready within it: the others keep starting and join through the catalog event (clients
 * hear `list_changed`); one whose last start failed less than a pause ago is neither waited
 * for nor started again by a listing until then. A server `cached` answers for (catalog cache)
 * is started but not waited for: it counts as listed. Without `waitMs`, every offered server.
 */
export async function listWait(offered: ServerConnection[], waitMs: number | undefined, clock: Clock, cached: (c: ServerConnection) => boolean = () => false): Promise<ServerConnection[]> {
  if (waitMs === undefined) {
    await Promise.allSettled(offered.map((c) => c.tools()));
    return offered;
  }
  const asked = offered.filter((c) => c.ready || !c.breaker.failedRecently());
  const listed = (c: ServerConnection) => c.ready || cached(c);
  if (!asked.every((c) => c.ready)) {
    const started = asked.map((c) => c.tools());
    const waited = Promise.allSettled(started.filter((_, i) => !listed(asked[i]!)));
    // A cached server's start goes on in the background; its failure is its connection's to report.
    for (const start of started) start.catch(() => undefined);
    await withDeadline(waited, waitMs, clock, () => new Error('list wait over')).catch(() => undefined);
  }
  return asked.filter(listed);
}
