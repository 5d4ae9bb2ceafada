import type { Clock } from '@blitz/clock';
import { withDeadline } from '../connection/deadline.js';
import type { ServerConnection } from '../connection/server-connection.js';

/**
 * The servers a listing asks, started first (MCP-10). With `waitMs` ([hub] list_wait_ms),
 * those ready within it: the others keep starting and join through the catalog event (clients
 * hear `list_changed`); one whose last start failed less than a pause ago is neither waited
 * for nor started again by a listing until then. Without it, every offered server.
 */
export async function listWait(offered: ServerConnection[], waitMs: number | undefined, clock: Clock): Promise<ServerConnection[]> {
  if (waitMs === undefined) {
    await Promise.allSettled(offered.map((c) => c.tools()));
    return offered;
  }
  const asked = offered.filter((c) => c.ready || !c.breaker.failedRecently());
  if (!asked.every((c) => c.ready)) {
    const started = Promise.allSettled(asked.map((c) => c.tools()));
    await withDeadline(started, waitMs, clock, () => new Error('list wait over')).catch(() => undefined);
  }
  return asked.filter((c) => c.ready);
}
