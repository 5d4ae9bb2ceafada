import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '@blitz/clock';
import type { ServerConfig } from '../config/server-config.js';
import { BlitzError, isBlitzError } from '../errors/blitz-error.js';
import { classifyFailure } from './call-errors.js';
import type { Connector } from './connector.js';
import type { Link } from './link.js';
import { listAllTools, type Listed } from './list-all.js';

export interface StartLinkOptions {
  connector: Connector;
  clock: Clock;
  workspace: string;
  capabilities: ClientCapabilities;
  signal: AbortSignal;
  prepareClient(client: Client): void;
  /** A failed start's process still being stopped: its owner waits for it before it is done. */
  stopping(done: Promise<void>): void;
}

/**
 * A server's start (MCP-10): its link opened and its tools listed, both within its startup
 * deadline. A start that fails closes what it opened — a server too slow to list its tools
 * in the background — and throws a BlitzError.
 */
export async function startLink(config: ServerConfig, opts: StartLinkOptions): Promise<{ link: Link; listed: Listed<Tool> }> {
  const deadlineMs = config.startupTimeoutSeconds * 1000;
  const started = opts.clock.now();
  let link: Link | undefined;
  try {
    link = await opts.connector(config, {
      workspace: opts.workspace,
      deadlineMs,
      capabilities: opts.capabilities,
      stopping: opts.stopping,
      signal: opts.signal,
      prepareClient: opts.prepareClient,
    });
    const left = Math.max(1, deadlineMs - (opts.clock.now() - started));
    const listed = await listAllTools(link.client, { timeout: left }).catch((err) => {
      throw classifyFailure(err, {
        server: config.name,
        label: `MCP server ${config.name} tools/list`,
        timeoutMs: deadlineMs,
        cancelled: false,
      }).error;
    });
    return { link, listed };
  } catch (err) {
    const closed = link?.close().catch(() => undefined);
    // A server too slow to list its tools is alive: stopping it may take a while, unwaited.
    if (closed && isBlitzError(err, 'TIMEOUT')) opts.stopping(closed);
    else await closed;
    throw isBlitzError(err)
      ? err
      : new BlitzError('SERVER_UNAVAILABLE', `MCP server ${config.name} failed to start: ${(err as Error).message}`, { cause: err });
  }
}
