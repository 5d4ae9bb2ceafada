import { Manager, resolveServer, type Connector, type ResolvedServer, type ServerConfig } from '@blitz/core';
import type { ServerTestResult } from '@blitz/client';
import type { Clock } from '@blitz/clock';

export interface TestServerDeps {
  connector: Connector;
  clock: Clock;
  env: Readonly<Record<string, string | undefined>>;
  /** The folder the server is started in as a workspace of its own. */
  workspace: string;
  /** The server as resolved (its expanded secrets), before it starts. */
  onResolved(resolved: ResolvedServer): void;
}

/**
 * The settings page's "Test": what `blitz doctor --online` does for one server — a workspace
 * of its own connects to it (even when it is switched off), lists its tools, and closes.
 */
export async function testServer(config: ServerConfig, deps: TestServerDeps): Promise<ServerTestResult> {
  const resolved = resolveServer({ ...config, disabled: false }, deps.env);
  deps.onResolved(resolved);
  const manager = new Manager({ workspace: deps.workspace, clock: deps.clock, connector: deps.connector });
  const started = deps.clock.now();
  try {
    await manager.update({ servers: [resolved] });
    const tools = await manager.connection(config.name).tools();
    return {
      server: config.name,
      ok: true,
      tools: tools.map((t) => ({ name: t.name, ...(t.description === undefined ? {} : { description: t.description }) })),
      elapsedMs: deps.clock.now() - started,
    };
  } catch (err) {
    return { server: config.name, ok: false, tools: [], error: (err as Error).message, elapsedMs: deps.clock.now() - started };
  } finally {
    await manager.close();
  }
}
