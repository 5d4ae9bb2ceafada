import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerConfig } from '../config/server-config.js';
import { createProxyFetch } from '../connection/http/proxy-fetch.js';
import { authorizedFetch } from './authorized-fetch.js';
import { noRedirectFetch } from './secure-endpoints.js';
import { ServerSignIn, type ServerSignInDeps } from './server-sign-in.js';

export type ServerSignInsDeps = Omit<ServerSignInDeps, 'fetch'> & { fetch?: FetchLike };

/**
 * Every server's sign-in in one process (the daemon), by server name and URL, so the
 * connections of every workspace to one server share its refreshes.
 */
export class ServerSignIns {
  readonly #deps: ServerSignInDeps;
  readonly #byKey = new Map<string, ServerSignIn>();
  readonly #proxy: ReturnType<typeof createProxyFetch> | undefined;

  constructor(deps: ServerSignInsDeps) {
    this.#proxy = deps.fetch ? undefined : createProxyFetch();
    this.#deps = { ...deps, fetch: noRedirectFetch(deps.fetch ?? this.#proxy!.fetch) };
  }

  /**
   * For the connector: wraps an HTTP server's fetch so its requests carry its token. Every
   * HTTP server gets it (any may answer 401 and be signed in to), except one with a static
   * Authorization header, which is the user's own. The store is read afresh at each connect.
   */
  fetchFor(config: ServerConfig): ((base: FetchLike) => FetchLike) | undefined {
    const t = config.transport;
    if (t.kind !== 'http' || Object.keys(t.headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
    const key = `${config.name}\n${t.url}\n${config.oauth?.clientId ?? ''}\n${config.oauth?.clientSecret ?? ''}`;
    let signIn = this.#byKey.get(key);
    if (!signIn) {
      signIn = new ServerSignIn(config, this.#deps);
      this.#byKey.set(key, signIn);
    }
    signIn.reload();
    const found = signIn;
    return (base) => authorizedFetch(found, base);
  }

  /** A server's sign-in changed elsewhere (login, logout): nothing cached for it is used again. */
  invalidate(server: string): void {
    for (const signIn of this.#byKey.values()) if (signIn.name === server) signIn.invalidate();
  }

  async close(): Promise<void> {
    await this.#proxy?.close();
  }
}
