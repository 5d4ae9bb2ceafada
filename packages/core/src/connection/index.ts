export type { Link } from './link.js';
export type { ConnectOptions, Connector } from './connector.js';
export { ServerConnection, type CallOptions, type ConnectionDeps, type ConnectionEvent } from './server-connection.js';
export { toServerStatus, type ServerStatus } from './server-status.js';
export { LIST_LIMITS, listAllPrompts, listAllResources, listAllResourceTemplates, listAllTools } from './list-all.js';
export { createConnector, type ConnectorDeps } from './create-connector.js';
export { connectStdio, type StdioConnectDeps } from './stdio/connect-stdio.js';
export { connectHttp, isSessionExpired, type HttpLink } from './http/index.js';
export { probeBubblewrap, findOnPath, isSameProcess, signalProcesses, type ProcessId } from './stdio/index.js';
