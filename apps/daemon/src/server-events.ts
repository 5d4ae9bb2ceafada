import type { ManagerEvent, PoolEvent, ServerStatus } from '@blitz/core';
import type { Clock } from '@blitz/clock';
import type { ChildRecord } from './child-record.js';
import type { HubEndpoint } from './hub/hub-endpoint.js';
import type { Logger } from './log/index.js';
import type { NoticeFeed } from './notices/index.js';
import type { StatusCache } from './status-cache.js';
import type { Workspace } from './workspaces/workspace.js';

export interface ServerEventsDeps {
  statusCache: StatusCache;
  notices: NoticeFeed;
  log: Logger;
  hub: HubEndpoint;
  children: ChildRecord;
  clock: Clock;
}

/**
 * What the daemon does with each event of its servers: the status cache hears it, a notice
 * joins the feed the tray reads, a line goes to the log, a process joins the child record.
 */
export class ServerEvents {
  readonly #deps: ServerEventsDeps;

  constructor(deps: ServerEventsDeps) {
    this.#deps = deps;
  }

  /** A server's own events come once, not once per workspace using it: one notice, one log line. */
  fromPool({ server, workspaces, shared, event }: PoolEvent): void {
    const { statusCache, notices, log, hub, children, clock } = this.#deps;
    statusCache.heard(event);
    // A shared server is logged with every workspace using it, an own one with its workspace.
    const where = shared ? { shared: true, workspaces } : { workspace: workspaces[0] };
    switch (event.type) {
      case 'notice': {
        const notice = notices.push({ ...event.notice, time: clock.now(), workspaces });
        log.warn(notice.message, { server: notice.server, notice: notice.kind, ...where });
        hub.notice(workspaces, notice.message);
        return;
      }
      case 'failure':
        log.warn('MCP server failure', { server: event.server, reason: event.reason, ...where });
        return;
      case 'status':
        children.set(`${shared ? '\0shared' : workspaces[0]}\0${server.name}`, event.status.pid);
        resolveWhenFixed(notices, event.status, clock.now());
        log.info('MCP server state', {
          server: event.status.name,
          state: event.status.state,
          ...where,
          ...(event.status.error ? { error: event.status.error } : {}),
        });
        return;
      case 'listChanged':
        // Each workspace's manager hears these and tells its own clients.
        return;
      default: {
        const _exhaustive: never = event;
        return _exhaustive;
      }
    }
  }

  /** A workspace's own events: its catalog changes and notices (a tool held for review), and its servers' messages for its sessions. */
  fromManager(workspace: Workspace, event: ManagerEvent): void {
    const { statusCache, notices, log, hub } = this.#deps;
    statusCache.heard(event);
    hub.onManagerEvent(workspace, event);
    switch (event.type) {
      case 'notice': {
        const notice = notices.push({ ...event.notice, workspaces: [workspace.root] });
        log.warn(notice.message, { server: notice.server, notice: notice.kind, workspace: workspace.root });
        return;
      }
      // A daemon's managers use its pool, which reports their servers' states and failures (fromPool).
      case 'status':
      case 'failure':
      case 'catalog':
      case 'listChanged':
      case 'log':
      case 'resourceUpdated':
      case 'subscriptionsEnded':
        return;
      default: {
        const _exhaustive: never = event;
        return _exhaustive;
      }
    }
  }
}

/**
 * A server connected (after an edit, a restart, a recovery) or switched off: its failure
 * notices are resolved, so the feed shows the problem is over (issue 29.3).
 */
function resolveWhenFixed(notices: NoticeFeed, status: ServerStatus, now: number): void {
  if (status.state === 'connected' || status.state === 'disabled') notices.resolve(status.name, now);
}
