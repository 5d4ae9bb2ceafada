import type { Clock } from '@blitz/clock';
import type { ServerConfig } from '../../config/server-config.js';
import { BlitzError } from '../../errors/blitz-error.js';
import { childEnv } from './child-env.js';
import { commandLine, resolveWindowsCommand } from './command-line.js';
import { OwnedProcess } from './owned-process.js';
import type { ProcessId } from './process-tree.js';
import type { Containment } from './containment.js';
import type { Sandbox } from './sandbox.js';
import { StdioTransport } from './stdio-transport.js';

export interface SpawnServerDeps {
  /** The workspace the server belongs to: its default cwd and, sandboxed, its writable root. */
  workspaceDir: string;
  sandbox: Sandbox;
  /** Keeps an unsandboxed server's descendants from outliving it; without it they are looked for by parent pid. */
  containment?: Containment;
  parentEnv?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  clock?: Clock;
  graceMs?: number;
  onStderr?: (serverName: string, chunk: Buffer) => void;
  /** The largest message to hold from the server; see `StdioTransportOptions`. */
  maxMessageBytes?: () => number;
  /** Hears a server's descendants as they are seen (see `OwnedProcessOptions.onDescendants`). */
  onDescendants?: (leader: number, descendants: readonly ProcessId[]) => void;
}

/** Starts a configured stdio server: scrubbed env, Windows shim routing, sandbox or pid namespace, own process group. */
export function spawnServer(config: ServerConfig, deps: SpawnServerDeps): OwnedProcess {
  const { transport } = config;
  if (transport.kind !== 'stdio') {
    throw new BlitzError('INVALID_ARGUMENT', `MCP server ${config.name} is not a stdio server`);
  }
  const platform = deps.platform ?? process.platform;
  const env = childEnv(deps.parentEnv ?? process.env, platform, transport.env);
  const command = platform === 'win32' ? resolveWindowsCommand(transport.command, env) : transport.command;
  const line = commandLine(command, transport.args, platform);
  const launch = config.sandbox
    ? deps.sandbox.wrap(config.name, line, deps.workspaceDir, config.sandboxWrite)
    : (deps.containment?.wrap(line) ?? { ...line, leaderIsWrapper: false, contained: false });
  return OwnedProcess.spawn({
    ...launch,
    env,
    cwd: transport.cwd ?? deps.workspaceDir,
    platform,
    clock: deps.clock,
    graceMs: deps.graceMs,
    onStderr: deps.onStderr && ((chunk) => deps.onStderr!(config.name, chunk)),
    ...(deps.onDescendants ? { onDescendants: deps.onDescendants } : {}),
  });
}

/** A transport for an SDK `Client`; the process starts when the client connects. */
export function createStdioTransport(config: ServerConfig, deps: SpawnServerDeps): StdioTransport {
  return new StdioTransport({ name: config.name, spawn: () => spawnServer(config, deps), ...(deps.maxMessageBytes ? { maxMessageBytes: deps.maxMessageBytes } : {}) });
}
