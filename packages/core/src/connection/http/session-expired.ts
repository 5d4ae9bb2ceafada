import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Link } from '../link.js';

/**
 * The server answered 404 to a request carrying our `Mcp-Session-Id`: it restarted (or
 * timed the session out) and no longer knows us. The spec says to start a new session.
 */
export function isSessionExpired(err: unknown): boolean {
  return err instanceof StreamableHTTPError && err.code === 404;
}

/**
 * Runs `fn` on the current link; if the server has forgotten the session, reconnects (a
 * fresh initialize) once and runs `fn` again. Every request qualifies, `tools/call`
 * included: a 404 means the server did not accept the request, so nothing ran twice.
 *
 * `reconnect` gets the link that failed, so concurrent callers hitting the same expiry can
 * share one new session (reconnect only if `stale` is still the current link).
 */
export async function withSessionRecovery<T>(
  getLink: () => Link | Promise<Link>,
  reconnect: (stale: Link) => Promise<Link>,
  fn: (client: Client) => Promise<T>,
): Promise<T> {
  const link = await getLink();
  try {
    return await fn(link.client);
  } catch (err) {
    if (!isSessionExpired(err)) throw err;
    const fresh = await reconnect(link);
    return fn(fresh.client);
  }
}
