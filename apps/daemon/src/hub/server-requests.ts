import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '@blitz/core';
import type { Callers } from './callers.js';
import { RpcError } from './rpc-error.js';

/** Whom a server's requests concern: where its callers are recorded, and the folders it is told are its roots. */
export interface RequestScope {
  /** A workspace root, or `SHARED_CALLERS` for a shared server. */
  callers: string;
  /** The roots of a server without a `roots` setting: the workspace, or the home for a shared server. */
  roots: readonly string[];
}

/**
 * Answers a server's own requests (MCP-37): elicitation goes to the calling client when it
 * can answer, else is declined; sampling is forwarded only for servers with `sampling = true`
 * (only they are offered the capability); roots are the server's `roots` setting, by default
 * the workspace directory (the user's home for a shared server), and not offered at all with
 * `roots = false`.
 */
export function prepareServerRequests(client: Client, config: ServerConfig, scope: RequestScope, callers: Callers): void {
  const server = config.name;
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const caller = callers.current(scope.callers, server);
    if (!caller?.server.getClientCapabilities()?.elicitation) return { action: 'decline' };
    return caller.server.elicitInput(request.params, { signal: extra.signal, relatedRequestId: caller.requestId }).catch((err: unknown) => {
      throw RpcError.passOn(err);
    });
  });
  // The SDK refuses a handler for a capability the client did not declare.
  if (config.sampling) client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const caller = callers.current(scope.callers, server);
    if (!caller?.server.getClientCapabilities()?.sampling) {
      throw new RpcError(ErrorCode.InvalidRequest, 'sampling declined: no client that can sample is calling this server');
    }
    return caller.server.createMessage(request.params, { signal: extra.signal, relatedRequestId: caller.requestId }).catch((err: unknown) => {
      throw RpcError.passOn(err);
    });
  });
  const roots = config.roots;
  if (roots !== false) client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: (roots ?? scope.roots).map((dir) => ({ uri: pathToFileURL(dir).href, name: dir })),
  }));
}
