import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { META_INPUT_KEY, type Caller, type RequestOwner, type ServerConfig } from '@blitz/core';
import type { Logger } from '../log/index.js';
import { RpcError } from './rpc-error.js';
import { speaksModern } from './session-era.js';

export interface ServerRequestsOptions {
  /** The roots of a server without a `roots` setting: the workspace, or the home for a shared server. */
  roots: readonly string[];
  log: Logger;
}

/**
 * Answers a server's own requests (MCP-37). Elicitation goes to the client whose call the
 * request belongs to, when it can answer, else is declined; sampling likewise, only for
 * servers with `sampling = true` (only they are offered the capability). A request whose call
 * cannot be told — calls from several sessions in flight, and a transport that does not say
 * (stdio) — is declined rather than put to a client it may not concern, and the log says why.
 * Roots are the server's `roots` setting, by default the workspace directory (the user's home
 * for a shared server) or, for a 2026-07-28 client that declares roots, the client's answer;
 * not offered at all with `roots = false`.
 */
export function serverRequests(
  opts: ServerRequestsOptions,
): (client: Client, config: ServerConfig, ownerOf: (serverRequestId: RequestId) => RequestOwner) => void {
  return (client, config, ownerOf) => prepareServerRequests(client, config, ownerOf, opts);
}

/**
 * A server's question as its client is asked it: the key a 2026-07-28 server gave the question
 * (`_meta["blitz/inputKey"]`, modern-server-transport.ts) is how a modern client is asked it,
 * and nothing a 2025 client has any use for.
 */
function forClient<P extends { _meta?: Record<string, unknown> }>(params: P, session: Caller['session']): P {
  if (speaksModern(session) || !params._meta || !(META_INPUT_KEY in params._meta)) return params;
  const { [META_INPUT_KEY]: _key, ...meta } = params._meta;
  const { _meta: _dropped, ...rest } = params;
  return (Object.keys(meta).length ? { ...rest, _meta: meta } : rest) as P;
}

function prepareServerRequests(
  client: Client,
  config: ServerConfig,
  ownerOf: (serverRequestId: RequestId) => RequestOwner,
  opts: ServerRequestsOptions,
): void {
  const server = config.name;
  const callerOf = (request: 'elicitation' | 'sampling', id: RequestId): Caller | undefined => {
    const owner = ownerOf(id);
    switch (owner.kind) {
      case 'caller':
        return owner.caller;
      case 'none':
        return undefined;
      case 'unknown':
        opts.log.warn(
          `declined a server's ${request} request: calls from ${owner.sessions} clients are in flight and the server's transport does not say whose call it is about`,
          { server },
        );
        return undefined;
      default: {
        const _exhaustive: never = owner;
        return _exhaustive;
      }
    }
  };
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const caller = callerOf('elicitation', extra.requestId);
    if (!caller?.session.getClientCapabilities()?.elicitation) return { action: 'decline' };
    return caller.session
      .elicitInput(forClient(request.params, caller.session), { signal: extra.signal, relatedRequestId: caller.requestId })
      .catch((err: unknown) => {
        throw RpcError.passOn(err);
      });
  });
  // The SDK refuses a handler for a capability the client did not declare.
  if (config.sampling)
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      const caller = callerOf('sampling', extra.requestId);
      if (!caller?.session.getClientCapabilities()?.sampling) {
        throw new RpcError(
          ErrorCode.InvalidRequest,
          'sampling declined: no client that can sample is calling this server, or Blitz cannot tell whose call this request is about',
        );
      }
      return caller.session
        .createMessage(forClient(request.params, caller.session), { signal: extra.signal, relatedRequestId: caller.requestId })
        .catch((err: unknown) => {
          throw RpcError.passOn(err);
        });
    });
  const roots = config.roots;
  if (roots !== false)
    client.setRequestHandler(ListRootsRequestSchema, async (_request, extra) => {
      // Without a roots setting, a 2026-07-28 client that declares roots is asked (in its call's input_required).
      const owner = roots === undefined ? ownerOf(extra.requestId) : undefined;
      const caller = owner?.kind === 'caller' ? owner.caller : undefined;
      if (caller && speaksModern(caller.session) && caller.session.getClientCapabilities()?.roots)
        return caller.session.listRoots(undefined, { signal: extra.signal, relatedRequestId: caller.requestId }).catch((err: unknown) => {
          throw RpcError.passOn(err);
        });
      return { roots: (roots ?? opts.roots).map((dir) => ({ uri: pathToFileURL(dir).href, name: dir })) };
    });
}
