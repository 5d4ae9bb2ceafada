import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { LoggingLevel, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { RouteOptions, TaskCreated } from '@blitz/core';
import type { AuditedCall } from '../audit/audited-call.js';
import type { Approver } from './approver.js';
import type { DeferredTools } from './deferred-tools.js';
import type { SessionScope } from './session-scope.js';
import type { ToolUse } from './tool-use.js';

/**
 * What a session's request handlers share (one `registerX(server, ctx)` per concern, beside
 * this file): whom the session serves, the settings in force, and its approver.
 */
export interface SessionContext extends SessionScope {
  /** The session's id in the workspace's manager: its subscriptions, logging level and requests are counted under it. */
  readonly session: string;
  readonly approver: Approver;
  /** The client was just sent the tools: later changes are told against what it saw. */
  toolsShown(): void;
  /** The client's `logging/setLevel`: servers' messages below it are not sent to it. */
  setLogLevel(level: LoggingLevel): void;
  /** Which tools the session lists and which it finds by search (issue 16). */
  readonly deferred: DeferredTools;
  /** Where the session's tool calls are counted (tool-use.ts). */
  readonly toolUse?: ToolUse;
  /** A tool call (`kind` tool), resource read or prompt get begins: its line of the audit log (issue 31). */
  audit(name: string, args: unknown, kind?: 'tool' | 'resource' | 'prompt'): AuditedCall;
  /** A search activated tools: the client hears `tools/list_changed` at once, and the answer waits (up to 1 s) for its listing. */
  toolsActivated(): Promise<void>;
  /** Whether the client's request waits for the client's retry with its answers (a 2026-07-28 `input_required`; modern-exchange.ts). */
  readonly waiting?: (requestId: RequestId) => boolean;
  /** A server made a task of a call (the tasks extension): the task as the client is to have it, under the hub's id. */
  taskMade(server: string, task: TaskCreated): TaskCreated;
}

/**
 * How a session's request is routed to a server: for its agent, cancelled with it, its log
 * messages to it, and refused before the server is asked when a deny rule covers it (issue 25.3).
 * `asking`: the session's SDK server, for a request its server may ask the client something
 * during (`prompts/get`, `resources/read`): those questions go to this client, as a tool call's do.
 */
export function routeOf(ctx: SessionContext, extra: { signal: AbortSignal; requestId: RequestId }, asking?: Server): RouteOptions {
  return {
    agent: ctx.agent,
    signal: extra.signal,
    request: { session: ctx.session, requestId: extra.requestId },
    permissions: ctx.settings().permissions,
    ...(asking ? { caller: { session: asking, requestId: extra.requestId, waiting: () => ctx.waiting?.(extra.requestId) === true } } : {}),
  };
}
