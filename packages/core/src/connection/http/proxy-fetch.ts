import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { EnvHttpProxyAgent } from 'undici';

type Undici = typeof import('undici');
let undici: Promise<Undici> | undefined;
/**
 * Loaded at the first remote request: undici is most of the bundle, and most commands never send one.
 * From the workspaces Node gives the CommonJS module named exports; in the installed package's
 * bundle its chunk has only a default export (module.exports), which is where they are then.
 */
const loadUndici = (): Promise<Undici> =>
  (undici ??= import('undici').then((m) => (m.EnvHttpProxyAgent === undefined ? (m as unknown as { default: Undici }).default : m)));

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
  let agent: Promise<EnvHttpProxyAgent> | undefined;
  let closed = false;
  const agentOf = () => {
    if (closed && !agent) return Promise.reject(new Error('the connection this fetch served is closed'));
    return (agent ??= loadUndici().then((u) => new u.EnvHttpProxyAgent(settings)));
  };
  const fetch: FetchLike = async (url, init) => {
    const [u, dispatcher] = await Promise.all([loadUndici(), agentOf()]);
    // The SDK hands us the global fetch's types; undici's are the same shapes from its own copy.
    return (await u.fetch(url, { ...(init as Parameters<Undici['fetch']>[1]), dispatcher })) as unknown as Response;
  };
  return {
    fetch,
    async close() {
      // The agent is made by the first request; a request after close fails, as the destroyed agent's would.
      closed = true;
      if (agent) await (await agent).destroy().catch(() => {});
    },
  };
}
