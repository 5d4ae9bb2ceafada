import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { formatDelay, type Clock } from '@blitz/clock';
import type { ServerConfig } from '../../config/server-config.js';
import { BlitzError, isBlitzError } from '../../errors/blitz-error.js';
import type { ConnectOptions } from '../connector.js';
import { withDeadline } from '../deadline.js';
import { ModernServerTransport } from '../../eras/modern-server-transport.js';
import { DirectToolCalls } from '../../fast-lane/direct-tool-calls.js';
import { untilAborted } from '../until-aborted.js';
import type { Link } from '../link.js';
import type { Containment } from './containment.js';
import type { Sandbox } from './sandbox.js';
import { deniedFolder, explainSandboxDenial } from './sandbox-denial.js';
import { createStdioTransport, type SpawnServerDeps } from './spawn-server.js';
import { LazySchemaValidator } from '../lazy-schema-validator.js';

export interface StdioConnectDeps {
  sandbox: Sandbox;
  containment?: Containment;
  clock: Clock;
  clientVersion: string;
  parentEnv?: Readonly<Record<string, string | undefined>>;
  graceMs?: number;
  maxMessageBytes?: () => number;
  onDescendants?: SpawnServerDeps['onDescendants'];
  /** `tools/call` past the SDK client (DirectToolCalls); default true. */
  directCalls?: boolean;
  onStderr?: SpawnServerDeps['onStderr'];
}

/**
 * How long a stdio server's `server/discover` may go unanswered before its `initialize` is sent
 * anyway (half its startup deadline, if less): a server should refuse what it does not know,
 * but one may ignore anything before its handshake.
 */
export const DISCOVER_WITHIN_MS = 5_000;

/** Spawns an owned stdio server and completes the MCP handshake within the deadline. */
export async function connectStdio(config: ServerConfig, opts: ConnectOptions, deps: StdioConnectDeps): Promise<Link> {
  const stdio = createStdioTransport(config, {
    workspaceDir: opts.workspace,
    sandbox: deps.sandbox,
    ...(deps.containment ? { containment: deps.containment } : {}),
    clock: deps.clock,
    ...(deps.parentEnv ? { parentEnv: deps.parentEnv } : {}),
    ...(deps.graceMs === undefined ? {} : { graceMs: deps.graceMs }),
    ...(deps.maxMessageBytes ? { maxMessageBytes: deps.maxMessageBytes } : {}),
    ...(deps.onDescendants ? { onDescendants: deps.onDescendants } : {}),
    ...(deps.onStderr ? { onStderr: deps.onStderr } : {}),
  });
  // Asked which era it speaks; a server that ignores the question is sent its `initialize` after a while.
  const modern =
    opts.era === 'legacy'
      ? undefined
      : new ModernServerTransport(stdio, {
          clock: deps.clock,
          answerWithinMs: Math.min(DISCOVER_WITHIN_MS, opts.deadlineMs / 2),
          ...(opts.onVerdict ? { onVerdict: opts.onVerdict } : {}),
        });
  const transport = modern ?? stdio;
  const client = new Client(
    { name: 'blitz', version: deps.clientVersion },
    { capabilities: opts.capabilities, jsonSchemaValidator: new LazySchemaValidator() },
  );
  opts.prepareClient(client);
  const writable = () => deps.sandbox.writable(opts.workspace, config.sandboxWrite);
  const explain = (text: string) => (config.sandbox ? explainSandboxDenial(text, writable(), config.name) : undefined);
  /** The exit error, with a line on the sandbox when its stderr names a write it refused: then that is the cause. */
  const exitError = (): BlitzError | undefined => {
    const error = stdio.exitError;
    const folder = error && config.sandbox ? deniedFolder(error.message, writable()) : undefined;
    if (!error || folder === undefined) return error;
    return new BlitzError(error.code, `${error.message}\n${explain(error.message)}`, {
      cause: error,
      serverCause: { code: 'SANDBOX_DENIED', folder },
    });
  };

  let resolveLost!: (error: BlitzError) => void;
  const lost = new Promise<BlitzError>((resolve) => (resolveLost = resolve));
  let closing = false;
  // The SDK client calls this once the transport closes: by our close(), or because the process ended.
  client.onclose = () => {
    if (!closing)
      resolveLost(
        exitError() ??
          new BlitzError('SERVER_EXITED', `MCP server ${config.name} closed its connection`, {
            serverCause: { code: 'CONNECTION_CLOSED' },
          }),
      );
  };

  try {
    const connected = withDeadline(client.connect(transport), opts.deadlineMs, deps.clock, () => {
      const phase = stdio.process ? 'initialize' : 'spawn';
      const after = formatDelay(opts.deadlineMs);
      return new BlitzError('TIMEOUT', `MCP server ${config.name} did not answer ${phase} within ${after}`, {
        serverCause: { code: 'START_TIMEOUT', phase, after },
      });
    });
    await (opts.signal
      ? untilAborted(connected, opts.signal, () => new BlitzError('CANCELLED', `MCP server ${config.name} was stopped while starting`))
      : connected);
  } catch (err) {
    closing = true;
    const closed = client.close().catch(() => undefined);
    // A server that did not answer in time is alive, and stopping it may take its grace
    // periods: the start need not wait for them. Any other failure has its exit to report.
    if (opts.stopping && isBlitzError(err, 'TIMEOUT')) opts.stopping(closed);
    else await closed;
    if (isBlitzError(err)) throw err;
    throw (
      exitError() ??
      new BlitzError('SERVER_UNAVAILABLE', `MCP server ${config.name} failed to initialize: ${(err as Error).message}`, { cause: err })
    );
  }

  const proc = stdio.process!;
  // On the transport the client is connected on: it wraps the client's handlers.
  const direct = deps.directCalls === false ? undefined : new DirectToolCalls(transport, deps.clock);
  return {
    client,
    ...(direct ? { callTool: direct.call.bind(direct) } : {}),
    era: modern?.verdict?.era ?? 'legacy',
    ...(modern?.verdict?.era === 'modern' ? { relatedTo: (id: RequestId) => modern.relatedTo(id) } : {}),
    lost,
    pid: proc.pid,
    stderrTail: (lines = 20) => proc.stderr.lastLines(lines).join('\n'),
    explain,
    async close() {
      closing = true;
      await client.close();
    },
  };
}
