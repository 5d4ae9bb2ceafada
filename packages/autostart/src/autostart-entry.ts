import path from 'node:path';
import type { AutostartKind, LaunchSpec } from './launch-spec.js';
import { desktopEntry, systemdUnit } from './linux-entries.js';
import { launchAgentLabel, launchAgentPlist } from './macos-launch-agent.js';
import { RUN_KEY, runKeyData, runKeyValue } from './windows-run-key.js';

/** A start-at-login entry as it would be installed: a file, or a value in the Windows registry. */
export type AutostartEntry =
  | {
      kind: 'file';
      path: string;
      text: string;
      /** What `systemctl --user enable` would link; made by hand, as no user manager may run. */
      enableLink?: { path: string; target: string };
    }
  | { kind: 'registry'; key: string; value: string; data: string };

/** The folders entries go in, from HOME and XDG_CONFIG_HOME. */
export interface UserDirs {
  home: string;
  configHome: string;
}

export function userDirs(env: NodeJS.ProcessEnv, fallbackHome: string): UserDirs {
  const home = env.HOME || env.USERPROFILE || fallbackHome;
  const configHome = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return { home, configHome };
}

export type AutostartPlatform = 'linux' | 'darwin' | 'win32';

export function autostartPlatform(platform: NodeJS.Platform): AutostartPlatform | undefined {
  switch (platform) {
    case 'linux':
    case 'darwin':
    case 'win32':
      return platform;
    default:
      return undefined;
  }
}

/** Where an entry lives, without generating it (for status and disable). */
export function entryLocation(platform: AutostartPlatform, kind: AutostartKind, dirs: UserDirs): string {
  switch (platform) {
    case 'linux':
      return kind === 'tray'
        ? path.join(dirs.configHome, 'autostart', 'blitz.desktop')
        : path.join(dirs.configHome, 'systemd', 'user', 'blitz.service');
    case 'darwin':
      return path.join(dirs.home, 'Library', 'LaunchAgents', `${launchAgentLabel(kind)}.plist`);
    case 'win32':
      return `${RUN_KEY}\\${runKeyValue(kind)}`;
    default: {
      const _exhaustive: never = platform;
      return _exhaustive;
    }
  }
}

/** The entry `blitz autostart enable` writes: a pure function of the platform, kind and launch spec. */
export function autostartEntry(platform: AutostartPlatform, kind: AutostartKind, spec: LaunchSpec, dirs: UserDirs): AutostartEntry {
  const where = entryLocation(platform, kind, dirs);
  switch (platform) {
    case 'linux': {
      if (kind === 'tray') return { kind: 'file', path: where, text: desktopEntry(spec) };
      const link = path.join(path.dirname(where), 'default.target.wants', path.basename(where));
      return { kind: 'file', path: where, text: systemdUnit(spec), enableLink: { path: link, target: where } };
    }
    case 'darwin':
      return { kind: 'file', path: where, text: launchAgentPlist(spec, kind) };
    case 'win32':
      return { kind: 'registry', key: RUN_KEY, value: runKeyValue(kind), data: runKeyData(spec, kind) };
    default: {
      const _exhaustive: never = platform;
      return _exhaustive;
    }
  }
}
