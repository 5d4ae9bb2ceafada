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
export function modernHeaders(fetch: FetchLike, link: ModernHeadersOptions): FetchLike {
  const { params, speaksModern, onListenEnded } = link;
  return async (url, init) => {
    // A link found to speak 2025 sends nothing of the revision: its bodies are not read again.
    if (!speaksModern() || init?.method !== 'POST' || typeof init.body !== 'string' || !init.body.includes(META_VERSION))
      return fetch(url, init);
    let body: unknown;
    try {
      body = JSON.parse(init.body);
    } catch {
      return fetch(url, init);
    }
    const request = body as { id?: unknown; method?: unknown; params?: { _meta?: Record<string, unknown> } & Record<string, unknown> };
    const version = request.params?._meta?.[META_VERSION];
    if (typeof request.method !== 'string' || typeof version !== 'string') return fetch(url, init);
    const headers = new Headers(init.headers);
    headers.set('mcp-protocol-version', version);
    headers.set('mcp-method', request.method);
    const name = nameOf(request.method, request.params);
    if (name !== undefined) headers.set('mcp-name', encodeHeaderValue(name));
    if (request.method === 'tools/call' && name)
      for (const [header, value] of paramHeaderValues(params.of(name), request.params?.arguments)) headers.set(header, value);
    const response = await fetch(url, { ...init, headers });
    const id = request.id;
    if (request.method !== 'subscriptions/listen' || !onListenEnded || !response.body || (typeof id !== 'string' && typeof id !== 'number'))
      return response;
    return whenBodyEnds(response, () => onListenEnded(id));
  };
}

export interface ModernHeadersOptions {
  /** The parameter headers of the link's tools, as its server last listed them. */
  params: ToolParamHeaders;
  /** Whether the link may speak 2026-07-28: not known yet, or found to. */
  speaksModern: () => boolean;
  /**
   * The stream a `subscriptions/listen` is answered on ended (or broke), its answer come or not:
   * a listen's answer may never come when the connection drops, and the transport must know.
   */
  onListenEnded?: (id: string | number) => void;
}

/** The response, its body passed through as it is, and `ended` told once it ends or fails. */
function whenBodyEnds(response: Response, ended: () => void): Response {
  const reader = response.body!.getReader();
  let told = false;
  const tell = () => {
    if (told) return;
    told = true;
    ended();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          controller.close();
          tell();
        } else controller.enqueue(value);
      } catch (err) {
        controller.error(err);
        tell();
      }
    },
    cancel(reason) {
      tell();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
