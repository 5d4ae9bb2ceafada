import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { SessionContext } from './session-context.js';

/**
 * `logging/setLevel`: servers' messages below the level are no longer sent to this session,
 * and the servers it uses are given the most verbose level any session of the workspace
 * asked for. Blitz's own notices (MCP-33) are sent whatever the level.
 */
export function registerLogging(server: Server, ctx: SessionContext): void {
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    ctx.setLogLevel(request.params.level);
    await ctx.workspace.manager.routing.setLogLevel(ctx.session, request.params.level, ctx.agent);
    return {};
  });
}
