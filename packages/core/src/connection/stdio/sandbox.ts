import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BlitzError } from '../../errors/blitz-error.js';
import type { CommandLine } from './command-line.js';
import { viaFd3, type LaunchLine } from './containment.js';
import { findOnPath } from './find-on-path.js';
import { installCommand } from './install-command.js';

/** Where a sandboxed server may write, and what it must not see at all. */
export interface SandboxPaths {
  writable: string[];
  hidden: string[];
}

export interface SandboxPlaces {
  workspace: string;
  tmpDir: string;
  home: string | undefined;
  blitzHome: string;
  /** The server's `sandbox_write` paths, absolute. */
  extraWritable?: readonly string[];
}

/** Picks the paths for a sandbox; cache and secret folders count only if they exist. */
export function sandboxPaths(places: SandboxPlaces, exists: (p: string) => boolean): SandboxPaths {
  const inHome = (...names: string[]) => (places.home ? names.map((n) => path.join(places.home!, n)) : []);
  const writable = [places.workspace, places.tmpDir, ...inHome('.npm', '.cache').filter(exists), ...(places.extraWritable ?? [])];
  const hidden = [places.blitzHome, ...inHome('.ssh', '.aws', '.gnupg')].filter(exists);
  return { writable: [...new Set(writable)], hidden: [...new Set(hidden)] };
}

/**
 * bubblewrap argv (Linux): the whole file system read-only, the writable paths bound
 * read-write, each hidden path covered by an empty read-only tmpfs, network shared.
 *
 * `--unshare-pid` gives the server its own /proc, so it cannot read the daemon's environment
 * through /proc/<pid>/environ, and the kernel ends every process in the sandbox when its
 * first one dies. There is no `--new-session`: that guards against TIOCSTI on a controlling
 * terminal, which a detached child has not got, and it would move the server out of the
 * process group `close()` signals.
 */
export function bwrapArgs(paths: SandboxPaths, command: string, args: readonly string[]): string[] {
  const argv = ['--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  for (const p of paths.writable) argv.push('--bind', p, p);
  // After the binds, so a secret folder inside the workspace or tmp stays hidden.
  for (const p of paths.hidden) argv.push('--tmpfs', p, '--remount-ro', p);
  return [...argv, '--', command, ...args];
}

/**
 * A Seatbelt profile (macOS `sandbox-exec`). Paths arrive as `-D` parameters, never spliced
 * into the profile text, so no path can change its meaning. Later rules win.
 */
export function seatbeltProfile(paths: SandboxPaths): string {
  const params = (prefix: string, list: string[]) => list.map((_, i) => `  (subpath (param "${prefix}_${i}"))`);
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    '(allow file-write*',
    ...params('WRITABLE', paths.writable),
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper")',
    '  (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
  ];
  // A deny with no filter would deny every file: only write it when something is hidden.
  if (paths.hidden.length > 0) lines.push('(deny file-read* file-write*', ...params('HIDDEN', paths.hidden), ')');
  return lines.join('\n') + '\n';
}

export function sandboxExecArgs(paths: SandboxPaths, command: string, args: readonly string[]): string[] {
  const defines = [
    ...paths.writable.map((p, i) => ['-D', `WRITABLE_${i}=${p}`]),
    ...paths.hidden.map((p, i) => ['-D', `HIDDEN_${i}=${p}`]),
  ].flat();
  return ['-p', seatbeltProfile(paths), ...defines, command, ...args];
}

export function sandboxUnavailable(serverName: string): BlitzError {
  return new BlitzError('FAILED_PRECONDITION', `sandbox unavailable: install bubblewrap, or set sandbox = false for ${serverName}`, {
    reason: 'SANDBOX_UNAVAILABLE',
  });
}

export interface SandboxDeps {
  blitzHome: string;
  /** Receives the one warning on platforms without a sandbox. */
  warn: (message: string) => void;
  platform?: NodeJS.Platform;
  /** Left out: `os.homedir()`; set to undefined: no home folders to bind or hide. */
  home?: string | undefined;
  tmpDir?: string;
  /** Finds an executable on PATH; defaults to a search of `process.env.PATH`. */
  which?: (name: string) => string | undefined;
  exists?: (p: string) => boolean;
  /** Creates a missing `sandbox_write` folder (bubblewrap binds only what exists). */
  makeDir?: (p: string) => void;
}

/** A command line inside the sandbox. */
export type SandboxedLine = LaunchLine;

/** Wraps a server's command line in the platform's sandbox. */
export interface Sandbox {
  /** `extraWritable`: the server's `sandbox_write` paths; a missing one is created as a folder first. */
  wrap(serverName: string, line: CommandLine, workspace: string, extraWritable?: readonly string[]): SandboxedLine;
  /** Where a server of `workspace` may write (real paths), to explain a write the sandbox refused. */
  writable(workspace: string, extraWritable?: readonly string[]): string[];
}

/** The platform's sandbox, or a pass-through that warns once where there is none. */
export function createSandbox(deps: SandboxDeps): Sandbox {
  const platform = deps.platform ?? process.platform;
  const exists = deps.exists ?? existsSync;
  const which = deps.which ?? ((name: string) => findOnPath(name, process.env.PATH ?? ''));
  // Sandboxes match real paths: /tmp is /private/tmp on macOS, a workspace may be a symlink.
  const real = (p: string) => (exists(p) ? realpathSync.native(p) : p);
  const makeDir = deps.makeDir ?? ((p: string) => mkdirSync(p, { recursive: true, mode: 0o700 }));
  const paths = (workspace: string, extraWritable: readonly string[] = []): SandboxPaths => {
    const places = {
      workspace,
      tmpDir: deps.tmpDir ?? os.tmpdir(),
      home: 'home' in deps ? deps.home : os.homedir(),
      blitzHome: deps.blitzHome,
      extraWritable,
    };
    const chosen = sandboxPaths(places, exists);
    return { writable: chosen.writable.map(real), hidden: chosen.hidden.map(real) };
  };
  let warned = false;

  return {
    writable: (workspace, extraWritable) => paths(workspace, extraWritable).writable,
    wrap(serverName, line, workspace, extraWritable = []) {
      switch (platform) {
        case 'linux': {
          const bwrap = which('bwrap');
          if (!bwrap) throw sandboxUnavailable(serverName);
          for (const p of extraWritable) if (!exists(p)) makeDir(p);
          const inner = viaFd3(line);
          return {
            command: bwrap,
            args: bwrapArgs(paths(workspace, extraWritable), inner.command, inner.args),
            leaderIsWrapper: true,
            contained: true,
            stdoutFd: 3,
          };
        }
        case 'darwin':
          // sandbox-exec execs the command in its place: no wrapper process remains.
          return {
            command: '/usr/bin/sandbox-exec',
            args: sandboxExecArgs(paths(workspace, extraWritable), line.command, line.args),
            leaderIsWrapper: false,
            contained: false,
          };
        default:
          if (!warned) {
            warned = true;
            deps.warn(`no sandbox on ${platform}: stdio MCP servers run unsandboxed (set sandbox = false to say that is intended)`);
          }
          return { ...line, leaderIsWrapper: false, contained: false };
      }
    },
  };
}

/**
 * Whether bubblewrap can build a sandbox here: it is installed and the kernel lets it create
 * the namespaces (containers and hardened kernels often do not). For `blitz doctor` and tests.
 */
export function probeBubblewrap(searchPath = process.env.PATH ?? ''): { ok: true } | { ok: false; reason: string } {
  const bwrap = findOnPath('bwrap', searchPath);
  if (!bwrap) return { ok: false, reason: `bwrap is not on PATH (${installCommand('bubblewrap')})` };
  const probe = spawnSync(bwrap, [...bwrapArgs({ writable: [], hidden: [] }, 'true', [])], { encoding: 'utf8', timeout: 10_000 });
  if (probe.status === 0) return { ok: true };
  return {
    ok: false,
    reason: `bwrap cannot create a sandbox here: ${(probe.stderr || probe.error?.message || `exit ${probe.status}`).trim()}`,
  };
}

/** One bubblewrap probe per PATH: servers added one after another need not spawn it each time. */
const probed = new Map<string, ReturnType<typeof probeBubblewrap>>();

/**
 * What to tell the user when these sandboxed stdio servers (by name) cannot start because
 * there is no sandbox here (issue 26.5): on Linux without a working bubblewrap, the reason with
 * this OS's fix; undefined where the sandbox works, or elsewhere (doctor checks macOS).
 */
export function sandboxWarning(
  servers: readonly string[],
  searchPath = process.env.PATH ?? '',
  platform = process.platform,
): string | undefined {
  if (servers.length === 0 || platform !== 'linux') return undefined;
  let probe = probed.get(searchPath);
  if (!probe) probed.set(searchPath, (probe = probeBubblewrap(searchPath)));
  return probe.ok ? undefined : `sandbox unavailable: ${probe.reason}; or set sandbox = false for ${servers.join(', ')}`;
}
