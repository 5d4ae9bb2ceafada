import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { passThrough } from './rpc-error.js';
import { routeOf, type SessionContext } from './session-context.js';

/**
 * `resources/subscribe` and `resources/unsubscribe`, to the URI's owner, counted per session
 * by the manager (the server is asked once, and let go after the last session). Registered
 * only when the hub declares subscriptions (some offered server does).
 */
export function registerSubscriptions(server: Server, ctx: SessionContext): void {
  const { manager } = ctx.workspace;
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    await passThrough(() => manager.routing.subscribe(request.params.uri, ctx.session, routeOf(ctx, extra)));
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request, extra) => {
    await passThrough(() => manager.routing.unsubscribe(request.params.uri, ctx.session, routeOf(ctx, extra)));
    return {};
  });
}
