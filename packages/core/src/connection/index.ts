export type { Link } from './link.js';
export type { Caller, RequestOwner } from './caller.js';
export type { ConnectOptions, Connector } from './connector.js';
export { ServerConnection, type CallOptions } from './server-connection.js';
export { isTaskCreated, type TaskCreated, type ToolCallAnswer } from './tool-task.js';
export type { ConnectionDeps, ConnectionEvent } from './connection-deps.js';
export { toServerStatus, type ReviewedTool, type ServerStatus } from './server-status.js';
export { listingWarnings, NO_TOOLS_WARNING } from './listing-warnings.js';
export { LIST_LIMITS, listAllPrompts, listAllResources, listAllResourceTemplates, listAllTools } from './list-all.js';
export { createConnector, type ConnectorDeps } from './create-connector.js';
export { LazySchemaValidator } from './lazy-schema-validator.js';
export { connectStdio, type StdioConnectDeps } from './stdio/connect-stdio.js';
export { connectHttp, isSessionExpired, type HttpLink } from './http/index.js';
export { checkCommand, installCommand, sandboxWarning, type CommandCheck, type CommandSearch } from './stdio/index.js';
export {
  createContainment,
  crashLine,
  describeContainment,
  probeBubblewrap,
  findOnPath,
  isSameProcess,
  signalProcesses,
  type ContainmentKind,
  type ProcessId,
} from './stdio/index.js';
