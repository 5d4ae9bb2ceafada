/**
 * The control API's shapes (DESIGN.md, "Control API"), shared by the daemon that serves
 * them and the CLI, tray and settings page that read them. Plain data only: no MCP SDK, no
 * core. One file per concern under api/; this module gathers them (the browser-safe
 * `@blitz/client/api-types` entry).
 */
export type { CauseCode, ServerState } from '@blitz/server-state';
export type { GlobalServerStatus, Notice, NoticeKind, ReviewedTool, ServerCopy, StatusResponse } from './api/status.js';
export type { FieldChange, ReviewAccepted, ServerReview, ToolReview } from './api/reviews.js';
export type { ClientContext, ContextCost, ContextReceipt, ServerContext } from './api/context.js';
export type { AskAnswer, AuditEntry, AuditOutcome, AuditRule, LatestCalls } from './api/audit.js';
export type { ConfigChange, McpServerConfig, McpServerConfigList, OAuthChange } from './api/server-config.js';
export type { ExposedTool, WorkspaceServer, WorkspaceServerDetail, WorkspaceSummary } from './api/workspaces.js';
export type { FieldProblem, ServerProblems, ServerTestResult } from './api/server-problems.js';
export type { ServerLogLine, ServerLogs } from './api/server-logs.js';
export type { SignedOut, SignInAttempt, SignInStarted, SignInStatus } from './api/sign-in.js';
export type { ClientConnected, ClientImported, ClientReport, ClientsReport, ConnectPreview, ImportPreview } from './api/clients.js';
export type { BlitzLaunchText, SettingsCode, SettingsSession } from './api/settings-session.js';
export type { ErrorBody } from './api/error-body.js';
export { MAX_CLIENT_MESSAGE_BYTES, MCP_LINES_PROTOCOL, type DaemonEnvironment, type DaemonState } from './api/daemon-endpoint.js';
