import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { passThrough } from './rpc-error.js';
import type { SessionContext } from './session-context.js';

/** The servers' resources and templates, passed through (MCP-35): `resources/list`, `resources/templates/list`, `resources/read`. */
export function registerResources(server: Server, ctx: SessionContext): void {
  const { manager } = ctx.workspace;
  const { agent } = ctx;
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: (await manager.listResources(agent, undefined, { waitMs: ctx.settings().hub.listWaitMs })).map((e) => e.resource),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: (await manager.listResourceTemplates(agent, { waitMs: ctx.settings().hub.listWaitMs })).map(({ server: _server, ...t }) => t),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { server: _server, ...result } = await passThrough(() => manager.readResource(request.params.uri, { agent, signal: extra.signal, request: { session: ctx.session, requestId: extra.requestId } }));
    return result;
  });
}
