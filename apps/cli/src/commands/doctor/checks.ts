import fs from 'node:fs';
import {
  causeLine,
  checkCommand,
  createContainment,
  CredentialStore,
  describeContainment,
  explainCause,
  formatProblem,
  loadSettings,
  probeKeychain,
  resolveServer,
  sandboxWarning,
  type BlitzPaths,
  type ParsedSettings,
  type ServerConfig,
} from '@blitz/core';
import { BlitzClient, readDaemonState, type DaemonEnvironment } from '@blitz/client';
import { daemonVersionNote } from '../../daemon-version.js';

export interface Check {
  name: string;
  ok: boolean;
  /** Shown after the name; a failed check says how to fix it. */
  detail: string;
  /** A warning does not fail doctor. */
  warning?: boolean;
}

/** `serverLine`: where the loader found each server's fields, for the warnings `--online` finds later. */
export function settingsCheck(file: string): { check: Check; servers: ServerConfig[]; serverLine: ParsedSettings['serverLine'] } {
  const { settings, problems, serverLine } = loadSettings(file);
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length)
    return {
      check: { name: 'settings', ok: false, detail: `${file}:\n    ${errors.map(formatProblem).join('\n    ')}` },
      servers: [],
      serverLine,
    };
  const warnings = problems.length
    ? ` (${problems.length} warning${problems.length === 1 ? '' : 's'}: ${problems.map(formatProblem).join('; ')})`
    : '';
  return {
    check: { name: 'settings', ok: true, detail: `${file}: ${settings.servers.length} MCP servers${warnings}` },
    servers: settings.servers,
    serverLine,
  };
}

/** Where a running daemon looks for commands, when it differs from here. */
export type DaemonSearch = Pick<DaemonEnvironment, 'path' | 'pathext' | 'platform'>;

/**
 * Each enabled stdio server's command must be found where the daemon looks (MCP-40): the
 * running daemon's PATH, fixed when it started, or, with no daemon, this shell's.
 */
export function commandChecks(servers: readonly ServerConfig[], env: NodeJS.ProcessEnv, daemon?: DaemonSearch): Check[] {
  const here: DaemonSearch = { path: env.PATH ?? '', ...(env.PATHEXT ? { pathext: env.PATHEXT } : {}), platform: process.platform };
  return servers.flatMap((s): Check[] => {
    if (s.disabled || s.transport.kind !== 'stdio') return [];
    const name = `command of ${s.name}`;
    const command = s.transport.command;
    const check = checkCommand(command, daemon ?? here);
    switch (check.kind) {
      case 'found':
        return [{ name, ok: true, detail: check.file }];
      case 'setByVariable':
        return [{ name, ok: true, detail: `${command} (set by an environment variable; checked when it starts)`, warning: true }];
      case 'notFound': {
        const inShell = daemon ? checkCommand(command, here) : undefined;
        return [
          {
            name,
            ok: false,
            detail:
              inShell?.kind === 'found'
                ? `${command} is on your PATH (${inShell.file}) but not on the running daemon's, which was fixed when it started; restart it (blitz daemon stop && blitz daemon start), or give the full path`
                : causeLine(explainCause(s.name, { code: 'COMMAND_NOT_FOUND', command })),
          },
        ];
      }
      default: {
        const _exhaustive: never = check;
        return _exhaustive;
      }
    }
  });
}

/**
 * Each enabled server's `${VAR}` references, expanded in this shell's environment: one that is
 * not set keeps the server from starting in a daemon started from here (a warning: the running
 * daemon expands them in its own environment, fixed when it started).
 */
export function environmentChecks(servers: readonly ServerConfig[], env: NodeJS.ProcessEnv): Check[] {
  return servers.flatMap((s) => {
    const { unavailable } = resolveServer(s, env);
    if (unavailable === undefined) return [];
    return [
      {
        name: `environment of ${s.name}`,
        ok: true,
        warning: true,
        detail: `${unavailable} in this shell's environment: a daemon started from here cannot start the server (set what it needs, then blitz daemon restart)`,
      },
    ];
  });
}

export function sandboxCheck(
  servers: readonly ServerConfig[],
  platform = process.platform,
  searchPath = process.env.PATH ?? '',
): Check | undefined {
  const sandboxed = servers.filter((s) => !s.disabled && s.transport.kind === 'stdio' && s.sandbox);
  if (sandboxed.length === 0) return undefined;
  if (platform !== 'linux') {
    return platform === 'darwin'
      ? { name: 'sandbox', ok: fs.existsSync('/usr/bin/sandbox-exec'), detail: 'sandbox-exec' }
      : { name: 'sandbox', ok: true, warning: true, detail: `no OS sandbox on ${platform}: stdio servers run unsandboxed` };
  }
  const warning = sandboxWarning(
    sandboxed.map((s) => s.name),
    searchPath,
  );
  return warning === undefined
    ? { name: 'sandbox', ok: true, detail: 'bubblewrap works' }
    : { name: 'sandbox', ok: false, detail: warning };
}

/** How an unsandboxed server's descendants are kept from outliving it here (docs/daemon.md); a warning where Linux has only the tree scan. */
export function processesCheck(servers: readonly ServerConfig[], platform = process.platform): Check | undefined {
  if (!servers.some((s) => !s.disabled && s.transport.kind === 'stdio' && !s.sandbox)) return undefined;
  const kind = createContainment({ platform }).kind();
  return {
    name: 'processes',
    ok: true,
    ...(kind === 'scan' && platform === 'linux' ? { warning: true } : {}),
    detail: describeContainment(kind),
  };
}

/** Where OAuth sign-ins are kept (MCP-38): the OS keychain, or, when none answers, the 0600 file (a warning). */
export async function keychainCheck(paths: BlitzPaths, env: NodeJS.ProcessEnv): Promise<Check> {
  const store = await CredentialStore.open({ paths, probe: () => probeKeychain({ env }) });
  return store.backend.kind === 'keychain'
    ? { name: 'keychain', ok: true, detail: `the OS keychain answers; sign-ins are kept there (service "blitz")` }
    : {
        name: 'keychain',
        ok: true,
        warning: true,
        detail: `no OS keychain answered (${store.backend.reason ?? 'unknown reason'}): sign-ins are kept in ${store.backend.file} (mode 0600)`,
      };
}

/** Whether the daemon runs and answers; when it does, where it looks for commands. */
/** `version`: this blitz's, so that a daemon of another version (an upgrade while it ran) is a warning with the fix. */
export async function daemonCheck(home: string, version?: string): Promise<{ check: Check; search?: DaemonSearch }> {
  const state = readDaemonState(home);
  if (!state) return { check: { name: 'daemon', ok: false, detail: 'not running; start it: blitz daemon start' } };
  try {
    const client = new BlitzClient(state, { timeoutMs: 5_000 });
    // A daemon from before /v1/environment: commands are then checked on this shell's PATH.
    const [status, search] = await Promise.all([client.status(Number.MAX_SAFE_INTEGER), client.environment().catch(() => undefined)]);
    const problems = status.problems.length ? `; settings problems: ${status.problems.join('; ')}` : '';
    const stale = version === undefined ? undefined : daemonVersionNote(status.version, version);
    const check: Check = {
      name: 'daemon',
      ok: status.problems.length === 0,
      detail: `running (pid ${state.pid}) and answering on http://127.0.0.1:${state.port}${problems}${stale ? `; ${stale}` : ''}`,
    };
    if (stale && check.ok) check.warning = true;
    return search ? { check, search } : { check };
  } catch (err) {
    return {
      check: {
        name: 'daemon',
        ok: false,
        detail: `pid ${state.pid} is alive but does not answer on port ${state.port}: ${(err as Error).message}`,
      },
    };
  }
}
