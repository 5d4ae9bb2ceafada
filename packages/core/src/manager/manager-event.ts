import type { BreakerNotice } from '../breaker/breaker.js';
import type { ServerStatus } from '../connection/server-status.js';
import type { UpstreamNotification } from './server-interest.js';

/** A notice as the user hears it (MCP-33), stamped with its time. */
export interface ManagerNotice extends Omit<BreakerNotice, 'kind'> {
  /** The breaker's kinds, and `review`: a server's tools held for review since they were pinned (issue 31). */
  kind: BreakerNotice['kind'] | 'review';
  time: number;
}

/** What a workspace's manager tells the daemon and the hub. */
export type ManagerEvent =
  | { type: 'status'; status: ServerStatus }
  /** The tool catalog may have changed: connected clients should hear `tools/list_changed`. */
  | { type: 'catalog' }
  | { type: 'notice'; notice: ManagerNotice }
  /** Every transport failure, for the log (MCP-33). */
  | { type: 'failure'; server: string; reason: string }
  /** A server changed its prompts or resources. */
  | { type: 'listChanged'; server: string; list: 'prompts' | 'resources' }
  /** A server removed from the settings took these sessions' resource subscriptions with it. */
  | { type: 'subscriptionsEnded'; server: string; subscriptions: ReadonlyArray<{ session: string; uris: readonly string[] }> }
  /** A server's log message or resource update, for the sessions it concerns. */
  | UpstreamNotification;
