import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { denyingRule, permissionKey } from '@blitz/core';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { LIST_RESOURCES } from './resource-tool-list.js';
import { audited } from '../audit/audited-call.js';
import { passThrough } from './rpc-error.js';
import { routeOf, type SessionContext } from './session-context.js';

/**
 * The servers' resources and templates, passed through (MCP-35): `resources/list`,
 * `resources/templates/list`, `resources/read`. A server whose resources a deny rule covers
 * stays out of the lists, as `list_mcp_resources` leaves it out, and its reads are refused.
 */
export function registerResources(server: Server, ctx: SessionContext): void {
  const { manager } = ctx.workspace;
  const { agent } = ctx;
  const listed = (e: { server: string }) => denyingRule(ctx.settings().permissions, permissionKey(e.server, LIST_RESOURCES)) === undefined;
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: (await manager.lists.listResources(agent, undefined, { waitMs: ctx.settings().hub.listWaitMs }))
      .filter(listed)
      .map((e) => e.resource),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: (await manager.lists.listResourceTemplates(agent, { waitMs: ctx.settings().hub.listWaitMs }))
      .filter(listed)
      .map(({ server: _server, ...t }) => t),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) =>
    passThrough(() =>
      audited(ctx.audit(request.params.uri, undefined, 'resource'), extra.signal, async () => {
        const { server: owner, ...result } = await manager.lists.readResource(request.params.uri, routeOf(ctx, extra, server));
        return { result, server: owner };
      }),
    ),
  );
}
