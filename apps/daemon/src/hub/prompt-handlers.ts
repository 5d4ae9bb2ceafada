import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { denyingRule, promptPermissionKey } from '@blitz/core';
import { GetPromptRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { audited } from '../audit/audited-call.js';
import { passThrough } from './rpc-error.js';
import { routeOf, type SessionContext } from './session-context.js';

/** The servers' prompts, named like tools (MCP-36): `prompts/list`, `prompts/get`; a prompt a deny rule covers is neither listed nor got. */
export function registerPrompts(server: Server, ctx: SessionContext): void {
  const { manager } = ctx.workspace;
  const { agent } = ctx;
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await manager.lists.listPrompts(agent, { waitMs: ctx.settings().hub.listWaitMs }))
      .filter((e) => denyingRule(ctx.settings().permissions, promptPermissionKey(e.server, e.originalName)) === undefined)
      .map((e) => e.prompt),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) =>
    passThrough(() =>
      audited(ctx.audit(request.params.name, request.params.arguments, 'prompt'), extra.signal, async () => {
        const { server: owner, ...result } = await manager.lists.getPrompt(
          request.params.name,
          request.params.arguments ?? {},
          routeOf(ctx, extra, server),
        );
        return { result, server: owner };
      }),
    ),
  );
}
