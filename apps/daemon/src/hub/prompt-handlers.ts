import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { passThrough } from './rpc-error.js';
import type { SessionContext } from './session-context.js';

/** The servers' prompts, named like tools (MCP-36): `prompts/list`, `prompts/get`. */
export function registerPrompts(server: Server, ctx: SessionContext): void {
  const { manager } = ctx.workspace;
  const { agent } = ctx;
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await manager.listPrompts(agent, { waitMs: ctx.settings().hub.listWaitMs })).map((e) => e.prompt),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) =>
    passThrough(() => manager.getPrompt(request.params.name, request.params.arguments ?? {}, { agent, signal: extra.signal, request: { session: ctx.session, requestId: extra.requestId } })),
  );
}
