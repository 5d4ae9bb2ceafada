import path from 'node:path';
import type { Clock } from '@blitz/clock';
import type { ServerConfig } from '../../config/server-config.js';
import { BlitzError } from '../../errors/blitz-error.js';
import { childEnv } from './child-env.js';
import { checkCommand } from './check-command.js';
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
  const cwd = transport.cwd ?? deps.workspaceDir;
  if (platform !== 'win32') missingCommand(config.name, command, env.PATH ?? '', cwd);
  const line = commandLine(command, transport.args, platform);
  const launch = config.sandbox
    ? deps.sandbox.wrap(config.name, line, deps.workspaceDir, config.sandboxWrite)
    : (deps.containment?.wrap(line) ?? { ...line, leaderIsWrapper: false, contained: false });
  return OwnedProcess.spawn({
    ...launch,
    env,
    cwd,
    platform,
    clock: deps.clock,
    graceMs: deps.graceMs,
    onStderr: deps.onStderr && ((chunk) => deps.onStderr!(config.name, chunk)),
    ...(deps.onDescendants ? { onDescendants: deps.onDescendants } : {}),
  });
}

/**
 * A command that cannot be run is said so before anything starts: sandboxed, it would be
 * bubblewrap that fails ("bwrap: execvp x: No such file or directory"), where the user needs
 * to hear that x is not on PATH. Looked up on the PATH the server would get.
 */
function missingCommand(server: string, command: string, searchPath: string, cwd: string): void {
  const file = command.includes('/') ? path.resolve(cwd, command) : command;
  if (checkCommand(file, { path: searchPath, platform: process.platform }).kind === 'found') return;
  throw new BlitzError(
    'SERVER_UNAVAILABLE',
    `MCP server ${server} could not start: ${command} ${command.includes('/') ? 'is not an executable file' : 'is not on PATH'}`,
    {
      reason: 'COMMAND_NOT_FOUND',
      serverCause: { code: 'COMMAND_NOT_FOUND', command },
    },
  );
}

/** A transport for an SDK `Client`; the process starts when the client connects. */
export function createStdioTransport(config: ServerConfig, deps: SpawnServerDeps): StdioTransport {
  return new StdioTransport({
    name: config.name,
    spawn: () => spawnServer(config, deps),
    ...(deps.maxMessageBytes ? { maxMessageBytes: deps.maxMessageBytes } : {}),
  });
}
