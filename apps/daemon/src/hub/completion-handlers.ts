import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { passThrough } from './rpc-error.js';
import { routeOf, type SessionContext } from './session-context.js';

/**
 * `completion/complete`, routed to the owner of the prompt (by its exposed name) or the
 * resource template; an unknown one is -32602 naming it. Registered only when the hub
 * declares completions (some offered server does).
 */
export function registerCompletions(server: Server, ctx: SessionContext): void {
  const { manager } = ctx.workspace;
  server.setRequestHandler(CompleteRequestSchema, async (request, extra) =>
    passThrough(() => manager.routing.complete(request.params, routeOf(ctx, extra))),
  );
}
