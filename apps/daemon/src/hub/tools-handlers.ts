import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type RequestId,
  type ServerNotification,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  BlitzError,
  callSignalOf,
  declaresTasks,
  formatBytes,
  isBlitzError,
  isTaskCreated,
  META_INPUT_RESPONSES,
  type CallSignal,
  type ResolvedTool,
  type ToolCallAnswer,
} from '@blitz/core';
import type { AuditedCall } from '../audit/audited-call.js';
import { CALL_TOOL, SEARCH_TOOLS } from './deferred-tools.js';
import { surelyWithin } from './json-size.js';
import { LIST_RESOURCES, READ_RESOURCE } from './resource-tool-list.js';
import { callResourceTool } from './resource-tools.js';
import { passedOn, RpcError } from './rpc-error.js';
import type { SessionContext } from './session-context.js';
import { toolError } from './tool-error.js';

/**
 * `tools/list` (the resource tools, the deferred-tool tools when something is deferred, then
 * what the session lists of its agent's catalog; none in read-only mode) and `tools/call`:
 * looked up, approved (MCP-30/43), routed to its server. `call_tool` takes the same path.
 */
export function registerTools(server: Server, ctx: SessionContext): ToolCallHandler {
  const { agent, readOnly } = ctx;
  const manager = ctx.workspace.manager;

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    // [hub] list_wait_ms: a slow server joins later, through tools/list_changed.
    const tools: Tool[] = ctx.deferred.tools(readOnly ? [] : await manager.listTools(agent, { waitMs: ctx.settings().hub.listWaitMs }));
    ctx.toolsShown();
    return { tools };
  });

  const callTool = toolCallHandler(server, ctx);
  // A task (the tasks extension) is no result the SDK types know; its loose result schema passes it on whole.
  server.setRequestHandler(
    CallToolRequestSchema,
    (request, extra) => callTool(request, { ...extra, signal: callSignalOf(extra.signal) }) as Promise<CallToolResult>,
  );
  return callTool;
}

/** What a `tools/call` needs of its request's context: the SDK server's, or the fast path's (tool-call-fast-path.ts). */
export interface ToolCallExtra {
  requestId: RequestId;
  /** The fast path's own (a CallCancellation); the SDK server's AbortSignal, seen as one. */
  signal: CallSignal;
  sendNotification(notification: ServerNotification): Promise<void>;
}

export type ToolCallHandler = (request: Pick<CallToolRequest, 'params'>, extra: ToolCallExtra) => Promise<ToolCallAnswer>;

/** `tools/call`: the one handler, whichever way the request came in. */
export function toolCallHandler(server: Server, ctx: SessionContext): ToolCallHandler {
  const { agent, readOnly } = ctx;
  const manager = ctx.workspace.manager;
  return async (request, extra) => {
    // One line of the audit log a call, whichever way it ends (issue 31).
    const audit = ctx.audit(request.params.name, request.params.arguments);
    try {
      const result = await handle(request, extra, audit);
      // A task is the call's answer for now: it ran, as far as the hub can tell.
      audit.answered(isTaskCreated(result) ? undefined : result, extra.signal);
      return result;
    } catch (err) {
      audit.threw(err, extra.signal);
      throw err;
    }
  };

  async function handle(request: Pick<CallToolRequest, 'params'>, extra: ToolCallExtra, audit: AuditedCall): Promise<ToolCallAnswer> {
    try {
      const { name } = request.params;
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      if (name === SEARCH_TOOLS) {
        if (!readOnly) await manager.listTools(agent, { waitMs: ctx.settings().hub.listWaitMs });
        const { result, activated } = ctx.deferred.search(manager.catalog(agent), args);
        if (activated) await ctx.toolsActivated();
        return result;
      }
      if (name !== CALL_TOOL) return await call(name, args, request, extra, audit);
      const inner = args.name;
      if (typeof inner !== 'string' || inner === '')
        return toolError(`${CALL_TOOL} needs "name": a tool name that ${SEARCH_TOOLS} returned`);
      if (inner === CALL_TOOL || inner === SEARCH_TOOLS)
        return toolError(`${CALL_TOOL} calls a server's tool; call ${inner} itself instead`);
      const innerArgs = args.arguments ?? {};
      if (typeof innerArgs !== 'object' || innerArgs === null || Array.isArray(innerArgs))
        return toolError(`${CALL_TOOL}: "arguments" must be an object`);
      audit.name = inner;
      audit.args = innerArgs;
      return await call(inner, innerArgs as Record<string, unknown>, request, extra, audit);
    } catch (err) {
      if (isBlitzError(err)) {
        if (isBlitzError(err, 'FAILED_PRECONDITION') && err.reason === 'TOOL_IN_REVIEW') audit.refused({ by: 'refused', why: 'in_review' });
        else audit.failed(err, extra.signal);
        return toolError(err.message);
      }
      throw RpcError.passOn(err);
    }
  }

  /** One tool's call, by `tools/call` or `call_tool` alike. */
  async function call(
    name: string,
    args: Record<string, unknown>,
    request: Pick<CallToolRequest, 'params'>,
    extra: ToolCallExtra,
    audit: AuditedCall,
  ): Promise<ToolCallAnswer> {
    if (name === LIST_RESOURCES || name === READ_RESOURCE)
      return await callResourceTool(ctx, name, args, extra.requestId, extra.signal, audit);
    if (readOnly) {
      audit.refused({ by: 'refused', why: 'read_only' });
      return toolError(
        `${name} was refused: this client connected in read-only mode, where only ${LIST_RESOURCES} and ${READ_RESOURCE} run`,
      );
    }
    let resolved: ResolvedTool;
    try {
      resolved = await manager.resolveTool(agent, name);
    } catch (err) {
      // A paused server's tool is refused as its calls are (MCP-32): a tool error in the breaker's words; so is a tool held for review (issue 31).
      if (isBlitzError(err, 'SERVER_UNAVAILABLE') || (isBlitzError(err, 'FAILED_PRECONDITION') && err.reason === 'TOOL_IN_REVIEW')) {
        audit.refused({ by: 'refused', why: isBlitzError(err, 'SERVER_UNAVAILABLE') ? 'paused' : 'in_review' });
        return toolError(err.message);
      }
      audit.failed(err, extra.signal);
      throw passedOn(err);
    }
    audit.server = resolved.entry.server;
    audit.name = resolved.entry.originalName;
    // Its definition as the server lists it now, against its pins (issue 31): refused or marked to be asked when in review.
    const tool = await manager.admitTool(resolved);
    const { entry, config } = tool;
    const approval = await ctx.approver.approve({
      server: entry.server,
      tool: entry.originalName,
      args,
      autoApprove: config.autoApprove,
      inSettings: config.source.kind === 'global',
      permissions: ctx.settings().permissions,
      requestId: extra.requestId,
      signal: extra.signal,
      ...(tool.inReview ? { inReview: true } : {}),
    });
    audit.rule = approval.rule;
    if (!approval.ok) {
      audit.refused();
      return toolError(approval.message);
    }
    ctx.toolUse?.record(entry.server, entry.originalName);
    const progressToken = request.params._meta?.progressToken;
    const inputResponses = request.params._meta?.[META_INPUT_RESPONSES];
    const result = await manager.callTool(tool, args, {
      ...(typeof inputResponses === 'object' && inputResponses !== null
        ? { inputResponses: inputResponses as Record<string, unknown> }
        : {}),
      signal: extra.signal,
      request: { session: ctx.session, requestId: extra.requestId },
      // The server's own requests during the call go to this client, on this request's stream.
      caller: { session: server, requestId: extra.requestId, waiting: () => ctx.waiting?.(extra.requestId) === true },
      ...(progressToken === undefined
        ? {}
        : {
            onprogress: (p) =>
              void extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken } }).catch(() => undefined),
          }),
    });
    if (!isTaskCreated(result)) return bounded(ctx, name, result, audit);
    // Only a client that declares the tasks extension is told that a server may make one (server-connection.ts).
    if (!declaresTasks(server.getClientCapabilities()))
      return toolError(
        `MCP server ${entry.server} answered ${name} with a task, which this client does not follow (it does not declare the tasks extension)`,
      );
    return ctx.taskMade(entry.server, result);
  }
}

/**
 * A result larger than `[hub] max_result_mb` is refused with its size (never passed on whole).
 * Most results are far below it: a walk bounding the size lets them by without serialising
 * them twice; only one that could be near the limit is measured exactly.
 */
function bounded(ctx: SessionContext, name: string, result: CallToolResult, audit: AuditedCall): CallToolResult {
  const limitMb = ctx.settings().hub.maxResultMb;
  const limit = limitMb * 1024 * 1024;
  if (surelyWithin(result, limit)) return result;
  const size = Buffer.byteLength(JSON.stringify(result));
  if (size <= limit) return result;
  audit.failed(new BlitzError('RESULT_TOO_LARGE', 'result too large'));
  return toolError(`the result of ${name} is ${formatBytes(size)}, more than [hub] max_result_mb = ${limitMb}; it was not passed on`);
}
