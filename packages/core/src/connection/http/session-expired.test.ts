import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../config/server-config.js';
import { startServer, type RestartableServer } from '../../../../../test/fixtures/http/restartable-server.mjs';
import type { Link } from '../link.js';
import { connectHttp, type HttpLink } from './connect-http.js';
import { isSessionExpired, withSessionRecovery } from './session-expired.js';
import { serverConfig } from '../../testing/server-config.js';

function httpConfig(url: string): ServerConfig {
  return serverConfig('notes', { transport: { kind: 'http', url, headers: {} }, sandbox: false });
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length)
    await closers
      .pop()?.()
      .catch(() => {});
});

/** What a connection would hold: the current link, replaced once on reconnect. */
async function holder(server: RestartableServer) {
  const connect = async (): Promise<HttpLink> => {
    const link = await connectHttp(httpConfig(server.url), { deadlineMs: 10_000, capabilities: {} });
    closers.push(() => link.close());
    return link;
  };
  let current = await connect();
  let reconnects = 0;
  return {
    getLink: () => current,
    reconnect: async (stale: Link) => {
      reconnects++;
      await stale.close();
      current = await connect();
      return current;
    },
    reconnects: () => reconnects,
  };
}

function whoami(link: { client: Link['client'] }): Promise<unknown> {
  return link.client.callTool({ name: 'whoami' }).then((r) => r.content);
}

describe('isSessionExpired', () => {
  it('is true only for a 404 from the streamable-HTTP transport', () => {
    expect(isSessionExpired(new StreamableHTTPError(404, 'Session not found'))).toBe(true);
    expect(isSessionExpired(new StreamableHTTPError(401, 'Unauthorized'))).toBe(false);
    expect(isSessionExpired(new McpError(404, 'not found'))).toBe(false);
    expect(isSessionExpired(new Error('404'))).toBe(false);
  });
});

describe('withSessionRecovery', () => {
  it('re-initializes once after the server forgot the session, and the call goes through', async () => {
    const server = await startServer();
    closers.push(() => server.close());
    const session = await holder(server);
    const before = await whoami(session.getLink());

    await server.restart();
    // Without recovery the same call fails with the session-expired error.
    await expect(session.getLink().client.callTool({ name: 'whoami' })).rejects.toSatisfy(isSessionExpired);

    const after = await withSessionRecovery(session.getLink, session.reconnect, (client) => whoami({ client }));
    expect(after).toEqual([{ type: 'text', text: session.getLink().sessionId }]);
    expect(after).not.toEqual(before);
    expect(server.stats.initialize).toBe(2);
    expect(session.reconnects()).toBe(1);
  });

  it('replays tools/call too, since the 404 means it never ran', async () => {
    const server = await startServer();
    closers.push(() => server.close());
    const session = await holder(server);
    await server.restart();
    const result = await withSessionRecovery(session.getLink, session.reconnect, (client) =>
      client.callTool({ name: 'echo', arguments: { text: 'again' } }),
    );
    expect(result.content).toEqual([{ type: 'text', text: 'again' }]);
    // The rejected call and the replay; only the replay reached a session.
    expect(server.stats.methods['tools/call']).toBe(2);
  });

  it('leaves other failures alone', async () => {
    const server = await startServer();
    closers.push(() => server.close());
    const session = await holder(server);
    const boom = new StreamableHTTPError(500, 'boom');
    await expect(withSessionRecovery(session.getLink, session.reconnect, () => Promise.reject(boom))).rejects.toBe(boom);
    expect(session.reconnects()).toBe(0);
  });

  it('reconnects only once when the fresh session is rejected too', async () => {
    const server = await startServer();
    closers.push(() => server.close());
    const session = await holder(server);
    const expired = new StreamableHTTPError(404, 'Session not found');
    await expect(withSessionRecovery(session.getLink, session.reconnect, () => Promise.reject(expired))).rejects.toBe(expired);
    expect(session.reconnects()).toBe(1);
  });
});
