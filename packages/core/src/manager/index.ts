export { Manager, type ListOptions, type ManagerEvent, type ManagerNotice, type ManagerOptions, type OfferedServer, type ResolvedTool, type ServerSet } from './manager.js';
export { SharedServers, type SharedLease, type SharedServersOptions, type SharedUser } from './shared-servers.js';
