import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';

/** Overrides for the proxy variables; by default the agent reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY. */
export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

export interface ProxyFetch {
  fetch: FetchLike;
  /** Drops the agent's sockets; the link calls it once its transport is closed. */
  close(): Promise<void>;
}

/**
 * A fetch that goes through the proxy the environment names, as curl and most CLIs do.
 * Node's global fetch ignores HTTPS_PROXY, so a daemon behind a corporate proxy could not
 * reach a remote server without this. One agent per link, so closing a link leaves no
 * keep-alive socket behind.
 */
export function createProxyFetch(settings: ProxySettings = {}): ProxyFetch {
  const agent = new EnvHttpProxyAgent(settings);
  const fetch: FetchLike = (url, init) =>
    // The SDK hands us the global fetch's types; undici's are the same shapes from its own copy.
    undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: agent }) as unknown as Promise<Response>;
  return {
    fetch,
    async close() {
      await agent.destroy().catch(() => {});
    },
  };
}
