import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '@blitz/core';
import type { Callers } from './callers.js';

/**
 * Answers a server's own requests (MCP-37): elicitation goes to the calling client when it
 * can answer, else is declined; sampling is forwarded only for servers with `sampling = true`
 * (only they are offered the capability); roots are the server's `roots` setting, the
 * workspace directory by default, and not offered at all with `roots = false`.
 */
export function prepareServerRequests(client: Client, config: ServerConfig, workspace: string, callers: Callers): void {
  const server = config.name;
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const caller = callers.current(workspace, server);
    if (!caller?.server.getClientCapabilities()?.elicitation) return { action: 'decline' };
    return caller.server.elicitInput(request.params, { signal: extra.signal, relatedRequestId: caller.requestId });
  });
  // The SDK refuses a handler for a capability the client did not declare.
  if (config.sampling) client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const caller = callers.current(workspace, server);
    if (!caller?.server.getClientCapabilities()?.sampling) {
      throw new McpError(ErrorCode.InvalidRequest, 'sampling declined: no client that can sample is calling this server');
    }
    return caller.server.createMessage(request.params, { signal: extra.signal, relatedRequestId: caller.requestId });
  });
  const roots = config.roots;
  if (roots !== false) client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: (roots ?? [workspace]).map((dir) => ({ uri: pathToFileURL(dir).href, name: dir })),
  }));
}
