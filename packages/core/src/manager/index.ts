export {
  Manager,
  type ListOptions,
  type ManagerOptions,
  type OfferedServer,
  type ResolvedTool,
  type RouteOptions,
  type ServerSet,
} from './manager.js';
export type { ManagerEvent, ManagerNotice } from './manager-event.js';
export { MAX_COMPLETION_VALUES } from './completion.js';
export type { IntroducedServer } from './session-routing.js';
export { mostVerbose, passesLevel } from './logging-level.js';
export type { ServerAnnouncement, SessionRequest, UpstreamNotification } from './server-interest.js';
export { SharedServers, type SharedLease, type SharedServersOptions, type SharedUser } from './shared-servers.js';
export { HOLD_MS as START_SOON_HOLD_MS } from './start-soon.js';
