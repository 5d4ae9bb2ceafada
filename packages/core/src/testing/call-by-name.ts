import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAIN_AGENT } from '../catalog/agent-may-use.js';
import type { Manager } from '../manager/manager.js';
import { isTaskCreated } from '../connection/tool-task.js';

/** Resolves a tool by the name clients see and calls it, as the hub does for a `tools/call`. */
export async function callByName(
  manager: Manager,
  name: string,
  args: Record<string, unknown>,
  agent = MAIN_AGENT,
): Promise<CallToolResult> {
  const answer = await manager.callTool(await manager.resolveTool(agent, name), args);
  // No caller here declares the tasks extension: a server never gets to make one.
  if (isTaskCreated(answer)) throw new Error(`${name} answered with a task, which no caller asked for`);
  return answer;
}
