import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { INVALID_PARAMS, META_SERVER_INFO } from '@blitz/core';
import { ALL_VERSIONS } from './modern-request.js';

/** Results the revision lets a client cache (server/utilities/caching): they carry `ttlMs` and `cacheScope`. */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * The hub's caching hints. Its lists are its servers' lists, which change when a server
 * starts, stops, is toggled or re-lists, none of it foreseeable: a list is stale at once
 * (the client re-fetches, or keeps it until `subscriptions/listen` says it changed). They
 * are one user's, one workspace's and one agent's: never shared with another caller.
 */
export const CACHE_HINTS = { ttlMs: 0, cacheScope: 'private' } as const;

/** The legacy "resource not found" code, which 2026-07-28 answers as invalid params. */
const RESOURCE_NOT_FOUND = -32002;

export interface ServerInfo {
  name: string;
  version: string;
}

/**
 * An answer of the hub's session, as a modern client is to get it: a result says it is
 * complete and who answered, cacheable ones carry the hints, tools come in name order (the
 * same list reads the same, whatever order its servers came up in); the legacy
 * resource-not-found code becomes the revision's.
 */
export function modernAnswer(message: JSONRPCMessage, request: JSONRPCRequest, serverInfo: ServerInfo): JSONRPCMessage {
  const method = request.method;
  if ('error' in message) {
    if (message.error.code !== RESOURCE_NOT_FOUND && !(method === 'resources/read' && message.error.code === INVALID_PARAMS))
      return message;
    // A read of a resource no server has: the revision's code, and the URI it could not find (SEP-2164).
    const uri = method === 'resources/read' ? (request.params as { uri?: unknown } | undefined)?.uri : undefined;
    const data = message.error.data ?? (typeof uri === 'string' ? { uri } : undefined);
    return { ...message, error: { ...message.error, code: INVALID_PARAMS, ...(data === undefined ? {} : { data }) } };
  }
  if (!('result' in message)) return message;
  const result: Record<string, unknown> = { ...message.result };
  // A task (the tasks extension) is no tool result: without the content the session's SDK gave it.
  if (result.resultType === 'task' && Array.isArray(result.content) && result.content.length === 0) delete result.content;
  if (method === 'tools/list' && Array.isArray(result.tools))
    result.tools = [...(result.tools as Array<{ name: string }>)].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const meta = { ...(result._meta as Record<string, unknown> | undefined), [META_SERVER_INFO]: serverInfo };
  return {
    ...message,
    result: { resultType: 'complete', ...result, _meta: meta, ...(CACHEABLE.has(method) ? CACHE_HINTS : {}) },
  };
}

/** `server/discover`'s result, from what the hub's session answers `initialize`: the same capabilities, identity and instructions. */
export function discoverResult(initialized: Record<string, unknown>): Record<string, unknown> {
  const capabilities = { ...(initialized.capabilities as Record<string, unknown>) };
  // Subscriptions are `subscriptions/listen`'s in this revision; resources/subscribe is gone.
  const resources = capabilities.resources as Record<string, unknown> | undefined;
  if (resources) {
    const { subscribe: _subscribe, ...rest } = resources;
    capabilities.resources = rest;
  }
  return {
    resultType: 'complete',
    supportedVersions: [...ALL_VERSIONS],
    capabilities,
    ...(typeof initialized.instructions === 'string' ? { instructions: initialized.instructions } : {}),
    _meta: { [META_SERVER_INFO]: initialized.serverInfo },
    ...CACHE_HINTS,
  };
}
