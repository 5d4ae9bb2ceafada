/** What starts at login: the tray (which starts the daemon), or the daemon alone. */
export type AutostartKind = 'tray' | 'daemon';

export const AUTOSTART_KINDS: readonly AutostartKind[] = ['tray', 'daemon'];

/** How to run Blitz at login, captured when autostart is enabled. */
export interface LaunchSpec {
  /** Absolute path of the Node binary running Blitz now. */
  node: string;
  /** Absolute path of the CLI's `bin/blitz.js`. */
  cli: string;
  /**
   * The PATH of the shell that enabled autostart: a graphical login session does not read
   * shell profiles, so without it the daemon cannot find `npx`, `uvx` or `docker`.
   */
  path?: string;
  /** Kept when set, so the login-time Blitz uses the same home. */
  blitzHome?: string;
  /** Where launchd writes the output (macOS has no other place for it). */
  logDir?: string;
}

export function launchSpec(opts: { node: string; cli: string; env: NodeJS.ProcessEnv; logDir?: string }): LaunchSpec {
  return {
    node: opts.node,
    cli: opts.cli,
    ...(opts.env.PATH ? { path: opts.env.PATH } : {}),
    ...(opts.env.BLITZ_HOME ? { blitzHome: opts.env.BLITZ_HOME } : {}),
    ...(opts.logDir ? { logDir: opts.logDir } : {}),
  };
}

/** The command line, unquoted: node, the CLI, and `tray` or `daemon` (foreground). */
export function launchArgs(spec: LaunchSpec, kind: AutostartKind): string[] {
  return [spec.node, spec.cli, kind];
}

/** The variables the login-time process gets. */
export function launchEnv(spec: LaunchSpec): [string, string][] {
  return [
    ...(spec.path === undefined ? [] : [['PATH', spec.path] as [string, string]]),
    ...(spec.blitzHome === undefined ? [] : [['BLITZ_HOME', spec.blitzHome] as [string, string]]),
  ];
}

/** Entries are one-line command lines: a path with a line break cannot be written safely. */
export function assertPrintable(values: readonly string[]): void {
  const bad = values.find((v) => /[\u0000-\u001f\u007f]/.test(v));
  if (bad !== undefined)
    throw new Error(`cannot write a start-at-login entry for a path or value with control characters: ${JSON.stringify(bad)}`);
}
