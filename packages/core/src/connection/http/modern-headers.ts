import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { encodeHeaderValue, META_VERSION, nameOf } from '../../eras/modern-protocol.js';
import { paramHeaderValues, type ToolParamHeaders } from '../../eras/param-headers.js';

/**
 * The headers a 2026-07-28 POST mirrors from its body (`MCP-Protocol-Version`, `Mcp-Method`, and
 * `Mcp-Name` for a tool's or prompt's name, a resource's URI), added to each POST whose body is
 * a request with the revision's version in its `_meta`: the SDK's 2025 transport sends one
 * version header for the session, and none of the others. A tool call also carries the
 * `Mcp-Param-*` headers its tool's arguments are marked for (`params`, param-headers.ts). Until
 * the link's era is known, and on a modern link, each POST is looked at (`speaksModern`).
 */
export function modernHeaders(fetch: FetchLike, params: ToolParamHeaders, speaksModern: () => boolean): FetchLike {
  return (url, init) => {
    // A link found to speak 2025 sends nothing of the revision: its bodies are not read again.
    if (!speaksModern() || init?.method !== 'POST' || typeof init.body !== 'string' || !init.body.includes(META_VERSION))
      return fetch(url, init);
    let body: unknown;
    try {
      body = JSON.parse(init.body);
    } catch {
      return fetch(url, init);
    }
    const request = body as { method?: unknown; params?: { _meta?: Record<string, unknown> } & Record<string, unknown> };
    const version = request.params?._meta?.[META_VERSION];
    if (typeof request.method !== 'string' || typeof version !== 'string') return fetch(url, init);
    const headers = new Headers(init.headers);
    headers.set('mcp-protocol-version', version);
    headers.set('mcp-method', request.method);
    const name = nameOf(request.method, request.params);
    if (name !== undefined) headers.set('mcp-name', encodeHeaderValue(name));
    if (request.method === 'tools/call' && name)
      for (const [header, value] of paramHeaderValues(params.of(name), request.params?.arguments)) headers.set(header, value);
    return fetch(url, { ...init, headers });
  };
}
