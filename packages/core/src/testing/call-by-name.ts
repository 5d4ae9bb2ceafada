import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAIN_AGENT } from '../catalog/agent-may-use.js';
import type { Manager } from '../manager/manager.js';

/** Resolves a tool by the name clients see and calls it, as the hub does for a `tools/call`. */
export async function callByName(
  manager: Manager,
  name: string,
  args: Record<string, unknown>,
  agent = MAIN_AGENT,
): Promise<CallToolResult> {
  return manager.callTool(await manager.resolveTool(agent, name), args);
}
