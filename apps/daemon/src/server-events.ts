import type { ConnectionEvent, ManagerEvent, ServerStatus } from '@blitz/core';
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

  /** A shared server's own events come once, not once per workspace: one notice, one log line. */
  fromShared(event: ConnectionEvent, workspaces: readonly string[]): void {
    const { statusCache, notices, log, hub, children, clock } = this.#deps;
    statusCache.heard(event);
    switch (event.type) {
      case 'notice': {
        const notice = notices.push({ ...event.notice, time: clock.now(), workspaces });
        log.warn(notice.message, { server: notice.server, notice: notice.kind, shared: true, workspaces });
        hub.sharedNotice(workspaces, notice.message);
        return;
      }
      case 'failure':
        log.warn('MCP server failure', { server: event.server, reason: event.reason, shared: true, workspaces });
        return;
      case 'status':
        children.set(`\0shared\0${event.status.name}`, event.status.pid);
        resolveWhenFixed(notices, event.status, clock.now());
        log.info('MCP server state', {
          server: event.status.name,
          state: event.status.state,
          shared: true,
          workspaces,
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

  fromManager(workspace: Workspace, event: ManagerEvent): void {
    const { statusCache, notices, log, hub, children, clock } = this.#deps;
    statusCache.heard(event);
    hub.onManagerEvent(workspace, event);
    switch (event.type) {
      case 'notice': {
        const notice = notices.push({ ...event.notice, workspaces: [workspace.root] });
        log.warn(notice.message, { server: notice.server, notice: notice.kind, workspace: workspace.root });
        return;
      }
      case 'failure':
        log.warn('MCP server failure', { server: event.server, reason: event.reason, workspace: workspace.root });
        return;
      case 'status':
        children.set(`${workspace.root}\0${event.status.name}`, event.status.pid);
        resolveWhenFixed(notices, event.status, clock.now());
        log.info('MCP server state', {
          server: event.status.name,
          state: event.status.state,
          workspace: workspace.root,
          ...(event.status.error ? { error: event.status.error } : {}),
        });
        return;
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
