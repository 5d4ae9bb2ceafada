import os from 'node:os';
import path from 'node:path';

/** Where Blitz keeps its files: `BLITZ_HOME`, else the platform's config folder. */
export function blitzHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.BLITZ_HOME) return path.resolve(env.BLITZ_HOME);
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  switch (platform) {
    case 'darwin':
      return path.join(home, 'Library', 'Application Support', 'blitz');
    case 'win32':
      return path.win32.join(env.APPDATA ?? path.win32.join(home, 'AppData', 'Roaming'), 'blitz');
    default:
      return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'blitz');
  }
}

/** The files under a Blitz home (DESIGN.md, "Files on disk"). */
export function blitzPaths(home: string) {
  return {
    home,
    settings: path.join(home, 'settings.toml'),
    stateDir: path.join(home, 'state'),
    daemonState: path.join(home, 'state', 'daemon.json'),
    /** Written by `blitz daemon stop`, removed by any daemon's start: clients (blitz connect) do not start one meanwhile. */
    daemonStopped: path.join(home, 'state', 'daemon-stopped'),
    trust: path.join(home, 'state', 'trust.json'),
    secrets: path.join(home, 'state', 'secrets.json'),
    /** Each server's last listing, for cold starts (catalog-cache.ts). */
    catalogCache: path.join(home, 'state', 'catalog-cache.json'),
    /** Each server's pinned tool definitions, a JSON line a server (pin-store.ts). */
    pins: path.join(home, 'state', 'pins.jsonl'),
    logs: path.join(home, 'logs'),
    /** Every call through the hub, a JSON line each (audit-log.ts). */
    audit: path.join(home, 'logs', 'audit.jsonl'),
  };
}

export type BlitzPaths = ReturnType<typeof blitzPaths>;
