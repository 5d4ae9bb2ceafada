/**
 * Test support: a `Connector` whose servers are SDK `McpServer`s in this process, linked by
 * the SDK's in-memory transport pair — fast tests of the manager and catalog logic. Real
 * processes and HTTP are covered by the stdio and http suites.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { BlitzError } from '../errors/blitz-error.js';
import type { Connector } from '../connection/connector.js';
import type { Link } from '../connection/link.js';

export interface FakeServer {
  /** Adds tools to a fresh server instance; called on every connect. */
  setup(server: McpServer): void;
  /** Makes the next connects fail, as a refused connection would. */
  failConnect?: boolean;
  /** Makes the next connects answer as a server that wants a sign-in (401). */
  needsSignIn?: boolean;
  /** Holds the next connects until it settles, as a server slow to initialize would. */
  gate?: Promise<void>;
}

export interface InMemoryConnector {
  connector: Connector;
  /** Connects so far, by server name: a restart shows as one more. */
  connects: Map<string, number>;
  /** Links alive now, by server name. */
  live: Map<string, { link: Link; server: McpServer; kill(): void }>;
}

export function inMemoryConnector(servers: Record<string, FakeServer>): InMemoryConnector {
  const connects = new Map<string, number>();
  const live = new Map<string, { link: Link; server: McpServer; kill(): void }>();
  let nextPid = 1000;
  const connector: Connector = async (config, opts) => {
    const fake = servers[config.name];
    if (!fake) throw new BlitzError('SERVER_UNAVAILABLE', `no fake server ${config.name}`);
    connects.set(config.name, (connects.get(config.name) ?? 0) + 1);
    if (fake.failConnect) throw new BlitzError('SERVER_UNAVAILABLE', `MCP server ${config.name} refused the connection`);
    if (fake.needsSignIn)
      throw new BlitzError('NEEDS_SIGN_IN', `MCP server ${config.name} needs sign-in: run blitz mcp login ${config.name}`);
    if (fake.gate) await fake.gate;
    const server = new McpServer({ name: config.name, version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
    fake.setup(server);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'blitz-test', version: '0' }, { capabilities: opts.capabilities });
    opts.prepareClient(client);
    await client.connect(clientSide);
    let closing = false;
    let resolveLost!: (e: BlitzError) => void;
    const lost = new Promise<BlitzError>((resolve) => (resolveLost = resolve));
    client.onclose = () => {
      if (!closing) resolveLost(new BlitzError('SERVER_EXITED', `MCP server ${config.name} exited with code 1`));
      live.delete(config.name);
    };
    const link: Link = {
      client,
      lost,
      pid: nextPid++,
      async close() {
        closing = true;
        live.delete(config.name);
        await client.close();
        await server.close();
      },
    };
    live.set(config.name, { link, server, kill: () => void server.close() });
    return link;
  };
  return { connector, connects, live };
}
