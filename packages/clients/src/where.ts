import fs from 'node:fs';
import path from 'node:path';

/**
 * The machine a client's files are looked up on: home, environment and platform are given,
 * never read from the process here, so Windows and macOS paths are tested on Linux.
 */
export interface Where {
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  /** Names in a folder, [] when it cannot be read (globbing `Claude_*` on Windows). */
  readonly listDir: (dir: string) => readonly string[];
}

export function whereFromProcess(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Where {
  const home = (platform === 'win32' ? env.USERPROFILE : env.HOME) ?? env.HOME ?? env.USERPROFILE ?? '';
  return { home, env, platform, listDir };
}

function listDir(dir: string): readonly string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** Joins with the platform's separator. */
export function join(where: Where, ...parts: string[]): string {
  return (where.platform === 'win32' ? path.win32 : path.posix).join(...parts);
}

/** `%APPDATA%` on Windows, `~/Library/Application Support` on macOS, `$XDG_CONFIG_HOME` or `~/.config` elsewhere. */
export function appDataDir(where: Where): string {
  switch (where.platform) {
    case 'win32':
      return where.env.APPDATA ?? join(where, where.home, 'AppData', 'Roaming');
    case 'darwin':
      return join(where, where.home, 'Library', 'Application Support');
    default:
      return xdgConfigDir(where);
  }
}

/** `$XDG_CONFIG_HOME` or `~/.config`, on every platform (tools that follow XDG everywhere). */
export function xdgConfigDir(where: Where): string {
  const xdg = where.env.XDG_CONFIG_HOME;
  return xdg !== undefined && xdg !== '' ? xdg : join(where, where.home, '.config');
}

export function localAppDataDir(where: Where): string {
  return where.env.LOCALAPPDATA ?? join(where, where.home, 'AppData', 'Local');
}
