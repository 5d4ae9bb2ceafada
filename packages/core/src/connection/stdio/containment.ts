import { spawnSync } from 'node:child_process';
import type { CommandLine } from './command-line.js';
import { findOnPath } from './find-on-path.js';

/**
 * How an unsandboxed server's descendants are kept from outliving it:
 * - `bwrap`: bubblewrap with only a pid namespace (the file system bound as it is, a fresh
 *   /proc); its pid 1 reaps, and when the server ends the kernel kills everything left inside;
 * - `unshare`: util-linux `unshare --pid --fork --kill-child`, the server as the namespace's
 *   pid 1 (with a user namespace when not root);
 * - `scan`: none of those works here (macOS, Windows, a container without namespaces): the
 *   process tree is looked at by parent pid, which misses a helper orphaned between two looks.
 */
export type ContainmentKind = 'bwrap' | 'unshare' | 'scan';

/** A command line as it is started, and what it takes to stop it. */
export interface LaunchLine extends CommandLine {
  /** The process we start only wraps the server and does not pass signals on (bubblewrap, unshare). */
  leaderIsWrapper: boolean;
  /** Everything the server starts is in a pid namespace that ends with it: no tree scan needed. */
  contained: boolean;
  /** The server's stdout comes on this fd of the wrapper, not its fd 1 (`viaFd3`). */
  stdoutFd?: 3;
}

/**
 * The command run with its stdout on the wrapper's fd 3, made its fd 1 by a shell that then
 * execs it. bubblewrap's own processes keep a copy of their fd 1 but close other fds, so a
 * server that closes its stdout is then seen to (issue 25.7); through bwrap's fd 1 it never was.
 */
export function viaFd3(line: CommandLine): CommandLine {
  return { command: '/bin/sh', args: ['-c', 'exec "$@" 1>&3 3>&-', 'sh', line.command, ...line.args] };
}

export interface Containment {
  /** Which mechanism applies here; tried on first use. */
  kind(): ContainmentKind;
  wrap(line: CommandLine): LaunchLine;
}

/** bubblewrap argv that adds a pid namespace and nothing else the server could notice. */
export function bwrapContainArgs(command: string, args: readonly string[]): string[] {
  return ['--die-with-parent', '--unshare-pid', '--dev-bind', '/', '/', '--proc', '/proc', '--', command, ...args];
}

/** util-linux unshare argv; a user that is not root needs a user namespace to own a pid namespace. */
export function unshareContainArgs(command: string, args: readonly string[], root: boolean): string[] {
  return ['--pid', '--fork', '--kill-child', '--mount-proc', ...(root ? [] : ['--user', '--map-current-user']), '--', command, ...args];
}

export interface ContainmentDeps {
  platform?: NodeJS.Platform;
  /** Finds an executable on PATH; defaults to a search of `process.env.PATH`. */
  which?: (name: string) => string | undefined;
  /** Whether this command line runs here (exit 0); defaults to running it. */
  runs?: (command: string, args: readonly string[]) => boolean;
  root?: boolean;
  /** Hears, once, that Linux has no pid namespace to offer here. */
  warn?: (message: string) => void;
}

/** The first mechanism that works on this machine, tried once on first use: each candidate runs `true` inside. */
export function createContainment(deps: ContainmentDeps = {}): Containment {
  const platform = deps.platform ?? process.platform;
  const which = deps.which ?? ((name: string) => findOnPath(name, process.env.PATH ?? ''));
  const runs = deps.runs ?? runsHere;
  const root = deps.root ?? process.getuid?.() === 0;
  let picked: { kind: ContainmentKind; wrap: (line: CommandLine) => LaunchLine } | undefined;
  const pick = () => (picked ??= choose());

  function choose(): NonNullable<typeof picked> {
    const scan = { kind: 'scan' as const, wrap: (line: CommandLine) => ({ ...line, leaderIsWrapper: false, contained: false }) };
    if (platform !== 'linux') return scan;
    const truePath = which('true') ?? '/bin/true';
    const bwrap = which('bwrap');
    if (bwrap && runs(bwrap, bwrapContainArgs(truePath, []))) {
      return {
        kind: 'bwrap',
        wrap: (line) => {
          const inner = viaFd3(line);
          return { command: bwrap, args: bwrapContainArgs(inner.command, inner.args), leaderIsWrapper: true, contained: true, stdoutFd: 3 };
        },
      };
    }
    const unshare = which('unshare');
    if (unshare && runs(unshare, unshareContainArgs(truePath, [], root))) {
      return {
        kind: 'unshare',
        wrap: (line) => ({
          command: unshare,
          args: unshareContainArgs(line.command, line.args, root),
          leaderIsWrapper: true,
          contained: true,
        }),
      };
    }
    deps.warn?.(`${describeContainment('scan')} (install bubblewrap, or allow unprivileged user namespaces)`);
    return scan;
  }

  return { kind: () => pick().kind, wrap: (line) => pick().wrap(line) };
}

function runsHere(command: string, args: readonly string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 }).status === 0;
}

/** One sentence for the log and `blitz doctor`. */
export function describeContainment(kind: ContainmentKind): string {
  switch (kind) {
    case 'bwrap':
      return 'each stdio server runs in a pid namespace of its own (bubblewrap): whatever it starts ends with it';
    case 'unshare':
      return 'each stdio server runs in a pid namespace of its own (unshare): whatever it starts ends with it';
    case 'scan':
      return 'no pid namespace here: a server’s descendants are found by parent pid, and a helper orphaned between two looks can outlive it';
    default: {
      const _exhaustive: never = kind;
      return _exhaustive;
    }
  }
}
