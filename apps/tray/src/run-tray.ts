import fs from 'node:fs';
import path from 'node:path';
import type { AutostartControl } from '@blitz/autostart';
import { BlitzClient, readDaemonState } from '@blitz/client';
import { systemClock, type Clock } from '@blitz/clock';
import { displayProblem, HEADLESS_HINT } from './display.js';
import { desktopNotifier } from './notify/desktop-notifier.js';
import { openFile, openUrl } from './open-file.js';
import { SystraySurface, TrayHelperError } from './systray/systray-surface.js';
import { notificationIcon } from './systray/tray-icon.js';
import { TrayApp, type DaemonLink } from './tray-app.js';
import { lockTray } from './tray-lock.js';
import { fileCursorStore } from './tray-state.js';

export interface RunTrayOptions {
  /** BLITZ_HOME, resolved by the caller (the tray cannot import core's resolution). */
  home: string;
  /** Starts the daemon and resolves once it answers ("Start daemon"). */
  startDaemon(): Promise<void>;
  /** "Start at login". */
  autostart: AutostartControl;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  clock?: Clock;
  openFile?(file: string): Promise<void>;
  openUrl?(url: string): Promise<void>;
  log?(message: string): void;
}

const SETTINGS_STUB = '# Blitz settings: see docs/settings.md. Add servers here ([[mcp.servers]]) or with `blitz mcp add`.\n';

/**
 * Runs the tray in this process until "Quit tray", "Quit Blitz", SIGINT or SIGTERM.
 * Returns the exit code: 0 after a quit, 1 when there is no display or the icon cannot be
 * shown (with the reason on stderr, never a hang).
 */
export async function runTray(opts: RunTrayOptions): Promise<number> {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const log = opts.log ?? ((message: string) => process.stderr.write(`blitz tray: ${message}\n`));
  const problem = displayProblem(env, platform);
  if (problem) {
    log(problem);
    return 1;
  }
  const lock = lockTray(opts.home);
  if (!lock.acquired) {
    log(`a Blitz tray is already running for ${opts.home} (pid ${lock.pid})`);
    return 1;
  }
  try {
    return await runLocked(opts, platform, log);
  } finally {
    lock.release();
  }
}

async function runLocked(opts: RunTrayOptions, platform: NodeJS.Platform, log: (message: string) => void): Promise<number> {
  const settings = path.join(opts.home, 'settings.toml');
  // systray2 runs `./traybin/<helper>` from the working directory when one is there: only the
  // user's own Blitz home may hold one, never whatever folder the tray was started in.
  fs.mkdirSync(opts.home, { recursive: true, mode: 0o700 });
  process.chdir(opts.home);
  // The surface reports clicks to the app, which draws on the surface: the callbacks run only after both exist.
  const surface = new SystraySurface({
    platform,
    cwd: opts.home,
    onAction: (action) => void app.handle(action),
    onHelperExit: (error) => app.fail(error),
    clock: opts.clock ?? systemClock,
  });
  const app: TrayApp = new TrayApp({
    clock: opts.clock ?? systemClock,
    findDaemon: () => findDaemon(opts.home),
    surface,
    notifier: desktopNotifier(platform, log, iconFile(opts.home, log), iconFile(opts.home, log, 'attention')),
    cursorStore: fileCursorStore(opts.home),
    autostart: opts.autostart,
    openSettings: async (server) => {
      // What `blitz settings` does: the daemon's page, by a one-time address (never the token).
      const state = readDaemonState(opts.home);
      if (state) {
        const code = await new BlitzClient(state, { timeoutMs: 5_000 }).settingsCode();
        // The browser keeps the #fragment through the code's redirect: the page opens at the server.
        const url = server === undefined ? code.url : `${code.url}#/server/${encodeURIComponent(server)}`;
        try {
          return await (opts.openUrl ?? ((address) => openUrl(address, platform)))(url);
        } catch (err) {
          // The address is spent on nobody: the user gets a new one from the terminal.
          throw new Error(
            `no browser opened (${(err as Error).message}). Run "blitz settings --print" in a terminal and open the address it prints`,
            { cause: err },
          );
        }
      }
      // The page is the daemon's: with none running, settings.toml itself is the settings.
      // An editor cannot open a file that is not there yet; an empty settings file is valid.
      if (!fs.existsSync(settings)) {
        try {
          fs.writeFileSync(settings, SETTINGS_STUB, { mode: 0o600, flag: 'wx' });
        } catch (err) {
          // There after all (made meanwhile, or a link to a file not there yet): open what is there.
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
      }
      await (opts.openFile ?? ((file) => openFile(file, platform)))(settings);
    },
    startDaemon: opts.startDaemon,
    log,
  });
  const stop = () => app.stop(0);
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, stop);
  try {
    await app.start();
    const code = await app.done;
    if (app.failure) log(failureText(app.failure));
    return code;
  } catch (err) {
    log(failureText(err));
    return 1;
  } finally {
    app.stop(0);
    for (const signal of signals) process.off(signal, stop);
    await surface.close();
  }
}

/** The icon notifications carry; without it (a read-only home) they go out plain. */
function iconFile(home: string, log: (message: string) => void, kind: 'ok' | 'attention' = 'ok'): string | undefined {
  try {
    return notificationIcon(home, kind);
  } catch (err) {
    log(`notifications go out without the Blitz icon: ${(err as Error).message}`);
    return undefined;
  }
}

function failureText(err: unknown): string {
  if (err instanceof TrayHelperError) return `the tray icon could not be shown: ${err.message}\n${HEADLESS_HINT}`;
  return err instanceof Error ? err.message : String(err);
}

/** Read afresh each poll: a restarted daemon has a new port, token and notice ids. */
function findDaemon(home: string): DaemonLink | undefined {
  const state = readDaemonState(home);
  if (!state) return undefined;
  return { identity: { pid: state.pid, startedAt: state.startedAt }, api: new BlitzClient(state, { timeoutMs: 5_000 }) };
}
