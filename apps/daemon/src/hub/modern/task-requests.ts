import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { declaresTasks, INVALID_PARAMS, MISSING_CAPABILITY, TASKS_EXTENSION, type Manager, type TaskCreated } from '@blitz/core';
import { passedOn } from '../rpc-error.js';
import { modernAnswer, type ServerInfo } from './modern-result.js';
import type { TaskTable } from './task-table.js';

/** Where a client's tasks are found: its workspace's manager, its agent, and the daemon's table. */
export interface TaskScope {
  manager: Manager;
  root: string;
  agent: string;
  tasks: TaskTable;
}

/** A server made a task of a tool call: the task as the client is to have it, under the hub's own id. */
export function taskMade(scope: TaskScope, server: string, task: TaskCreated): TaskCreated {
  return { ...task, taskId: scope.tasks.add(scope, server, task) };
}

/**
 * A 2026-07-28 client's `tasks/get`, `tasks/update` or `tasks/cancel` (the tasks extension),
 * sent to the server whose task it names, under that server's id; the answer names it by the
 * hub's. No hub session runs for it. Refused -32021 to a client that does not declare the
 * extension, -32602 for a task that is not this workspace's and agent's (or is past its TTL).
 */
export async function taskRequest(
  scope: TaskScope,
  request: JSONRPCRequest,
  capabilities: Record<string, unknown>,
  serverInfo: ServerInfo,
): Promise<JSONRPCMessage> {
  return modernAnswer(await sentToServer(scope, request, capabilities), request, serverInfo);
}

async function sentToServer(scope: TaskScope, request: JSONRPCRequest, capabilities: Record<string, unknown>): Promise<JSONRPCMessage> {
  const refused = (code: number, message: string, data?: unknown): JSONRPCMessage => ({
    jsonrpc: '2.0',
    id: request.id,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  });
  if (!declaresTasks(capabilities))
    return refused(MISSING_CAPABILITY, `Missing required client capability: ${request.method} needs the tasks extension`, {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    });
  const { _meta: _own, ...params } = (request.params ?? {}) as Record<string, unknown>;
  const id = params.taskId;
  const task = typeof id === 'string' ? scope.tasks.find(id, scope) : undefined;
  if (task === undefined || !scope.manager.routing.offers(scope.agent, task.server))
    return refused(INVALID_PARAMS, `Invalid params: there is no task ${JSON.stringify(id ?? null)} here`);
  try {
    const result = await scope.manager
      .connection(task.server)
      .taskRequest(request.method, { ...params, taskId: task.taskId }, capabilities);
    if (request.method === 'tasks/get') scope.tasks.renew(id as string, result.ttlMs);
    return { jsonrpc: '2.0', id: request.id, result: 'taskId' in result ? { ...result, taskId: id } : result };
  } catch (err) {
    const error = passedOn(err) as { code?: unknown; message?: string; data?: unknown };
    return refused(typeof error.code === 'number' ? error.code : -32603, error.message ?? String(err), error.data);
  }
}
