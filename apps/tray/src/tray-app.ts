import type { StatusResponse } from '@blitz/client';
import type { AutostartControl } from '@blitz/autostart';
import type { Clock, Timer } from '@blitz/clock';
import { buildMenu, sameMenu, type TrayView } from './menu/build-menu.js';
import type { MenuAction, MenuModel } from './menu/menu-model.js';
import { truncate } from './menu/server-title.js';
import { afterFor, sameCursor, takeNotices, type DaemonIdentity, type NoticeCursor } from './notify/notice-cursor.js';
import type { Notifier } from './notify/desktop-notifier.js';
import { MESSAGE_CHARS, notificationsFor, problemsNotification } from './notify/notification-text.js';
import { toTell } from './notify/notification-policy.js';
import type { CursorStore } from './tray-state.js';

export const POLL_MS = 2_000;
/** Start-at-login can change behind the tray's back (`blitz autostart`); look again this often. */
const AUTOSTART_REFRESH_POLLS = 15;

/** The part of `BlitzClient` the tray uses. */
export interface DaemonApi {
  status(after?: number): Promise<StatusResponse>;
  setServerEnabled(name: string, enabled: boolean): Promise<unknown>;
  shutdown(): Promise<unknown>;
}

export interface DaemonLink {
  api: DaemonApi;
  identity: DaemonIdentity;
}

/** Where the menu is drawn: the systray helper, or a fake in tests. */
export interface TraySurface {
  show(model: MenuModel): Promise<void>;
}

export interface TrayAppDeps {
  clock: Clock;
  /** The running daemon as `state/daemon.json` says now; undefined when none runs. */
  findDaemon(): DaemonLink | undefined;
  surface: TraySurface;
  notifier: Notifier;
  cursorStore: CursorStore;
  autostart: AutostartControl;
  /** Opens the settings page, at one server's view when one is named. */
  openSettings(server?: string): Promise<void>;
  /** Starts the daemon and resolves once it answers. */
  startDaemon(): Promise<void>;
  log(message: string): void;
  pollMs?: number;
}

/**
 * The tray's loop: polls the daemon's status every 2 s, redraws the menu only when what it
 * shows changed, turns new notices into desktop notifications, and carries out clicks.
 * Everything outside (time, daemon, surface, desktop) comes in through `deps`.
 */
export class TrayApp {
  /** Resolves with the exit code once the tray should quit. */
  readonly done: Promise<number>;
  #resolveDone!: (code: number) => void;
  readonly #deps: TrayAppDeps;
  readonly #pollMs: number;

  #status: StatusResponse | undefined;
  #link: DaemonLink | undefined;
  #starting = false;
  #startAtLogin = false;
  #cursor: NoticeCursor | undefined;
  /** The settings problems last told as a notification. */
  #problemsTold: string[] = [];
  #shown: MenuModel | undefined;
  #timer: Timer | undefined;
  #polling: Promise<void> | undefined;
  #again = false;
  #polls = 0;
  #stopped = false;
  #downLogged = false;
  #drawing: Promise<void> = Promise.resolve();
  #failure: unknown;

  constructor(deps: TrayAppDeps) {
    this.#deps = deps;
    this.#pollMs = deps.pollMs ?? POLL_MS;
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
  }

  /** Why the tray stopped with exit code 1, if it did. */
  get failure(): unknown {
    return this.#failure;
  }

  /** Loads what was seen before and draws the first menu; throws when the surface cannot show it. */
  async start(): Promise<void> {
    this.#cursor = this.#deps.cursorStore.load();
    this.#problemsTold = this.#deps.cursorStore.loadProblems();
    await this.#refreshAutostart();
    await this.pollNow();
  }

  /** Polls at once (joining a poll in flight, which then runs again), then every 2 s. */
  pollNow(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#polling) {
      this.#again = true;
      return this.#polling;
    }
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#polling = (async () => {
      try {
        do {
          this.#again = false;
          await this.#pollOnce();
        } while (this.#again && !this.#stopped);
      } finally {
        this.#polling = undefined;
        if (!this.#stopped) this.#timer = this.#deps.clock.setTimeout(() => this.#pollInBackground(), this.#pollMs);
      }
    })();
    return this.#polling;
  }

  /** Carries out a click; a failure is told as a notification, never thrown. */
  async handle(action: MenuAction): Promise<void> {
    if (this.#stopped) return;
    try {
      switch (action.kind) {
        case 'toggleServer': {
          if (!this.#link) throw new Error('the Blitz daemon is not running');
          await this.#link.api.setServerEnabled(action.server, action.enable);
          break;
        }
        case 'openSettings':
          await this.#deps.openSettings(action.server);
          return;
        case 'toggleStartAtLogin':
          await this.#deps.autostart.setEnabled(action.enable);
          await this.#refreshAutostart();
          break;
        case 'startDaemon':
          await this.#startDaemon();
          break;
        case 'quitTray':
          this.stop(0);
          return;
        case 'quitBlitz':
          // Quit anyway: the user asked for everything to go, and the daemon may be gone already.
          await this.#link?.api.shutdown().catch((err: unknown) => this.#deps.log(`stopping the daemon failed: ${message(err)}`));
          this.stop(0);
          return;
        default: {
          const _exhaustive: never = action;
          return _exhaustive;
        }
      }
    } catch (err) {
      this.#deps.log(`${actionFailure(action)}: ${message(err)}`);
      // The title says what failed; the message why, and what to do.
      this.#deps.notifier.notify({ title: actionFailure(action), message: truncate(sentence(message(err)), MESSAGE_CHARS) });
    }
    // Show the effect now rather than at the next tick.
    await this.pollNow().catch((err: unknown) => this.fail(err));
  }

  stop(code: number): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#resolveDone(code);
  }

  #pollInBackground(): void {
    this.#timer = undefined;
    this.pollNow().catch((err: unknown) => this.fail(err));
  }

  /** Stops the tray with exit code 1, keeping the first reason (see `failure`). */
  fail(err: unknown): void {
    if (this.#stopped) return;
    this.#failure ??= err;
    this.stop(1);
  }

  async #pollOnce(): Promise<void> {
    this.#polls += 1;
    if (this.#polls % AUTOSTART_REFRESH_POLLS === 0) await this.#refreshAutostart();
    const link = this.#deps.findDaemon();
    if (link) {
      try {
        const status = await link.api.status(afterFor(this.#cursor, link.identity));
        this.#link = link;
        this.#status = status;
        this.#downLogged = false;
        this.#takeNotices(status, link.identity);
        this.#takeProblems(status.problems);
      } catch (err) {
        this.#markDown(`the daemon does not answer: ${message(err)}`);
      }
    } else {
      this.#markDown('the daemon is not running');
    }
    await this.#draw();
  }

  #markDown(reason: string): void {
    this.#link = undefined;
    this.#status = undefined;
    if (!this.#downLogged) this.#deps.log(reason);
    this.#downLogged = true;
  }

  #takeNotices(status: StatusResponse, daemon: DaemonIdentity): void {
    const now = this.#deps.clock.now();
    const taken = takeNotices(this.#cursor, daemon, status.notices, now);
    // What to tell of them: changes to act on, once (issue 29.4), remembered with the cursor.
    const { tell, told } = toTell(this.#cursor?.told ?? {}, taken.show, status.servers, now);
    const cursor = { ...taken.cursor, told };
    if (!sameCursor(this.#cursor, cursor)) {
      this.#cursor = cursor;
      // Saved before notifying: after a crash in between, a notice is lost rather than repeated.
      try {
        this.#deps.cursorStore.save(cursor);
      } catch (err) {
        this.#deps.log(`could not save the tray state: ${message(err)}`);
      }
    }
    for (const notification of notificationsFor(tell)) this.#deps.notifier.notify(notification);
  }

  /**
   * A refused settings edit is told once, whole, as a notification: not again at every poll,
   * nor after a tray or daemon restart (the text told is kept in tray.json); again only once
   * the problems changed, for instance fixed and then broken anew.
   */
  #takeProblems(problems: readonly string[]): void {
    if (problems.length === this.#problemsTold.length && problems.every((p, i) => p === this.#problemsTold[i])) return;
    this.#problemsTold = [...problems];
    try {
      this.#deps.cursorStore.saveProblems(problems);
    } catch (err) {
      this.#deps.log(`could not save the tray state: ${message(err)}`);
    }
    if (problems.length > 0) this.#deps.notifier.notify(problemsNotification(problems));
  }

  #view(): TrayView {
    return this.#status
      ? { daemon: 'up', status: this.#status, startAtLogin: this.#startAtLogin }
      : { daemon: 'down', starting: this.#starting, startAtLogin: this.#startAtLogin };
  }

  /** Draws one menu at a time: a click may redraw while a poll does. */
  #draw(): Promise<void> {
    const next = this.#drawing.then(async () => {
      const model = buildMenu(this.#view(), this.#deps.clock.now());
      if (sameMenu(this.#shown, model)) return;
      await this.#deps.surface.show(model);
      this.#shown = model;
    });
    this.#drawing = next.catch(() => undefined);
    return next;
  }

  async #startDaemon(): Promise<void> {
    this.#starting = true;
    try {
      await this.#draw();
      await this.#deps.startDaemon();
    } finally {
      this.#starting = false;
    }
  }

  async #refreshAutostart(): Promise<void> {
    try {
      this.#startAtLogin = await this.#deps.autostart.isEnabled();
    } catch (err) {
      this.#deps.log(`could not read the start-at-login setting: ${message(err)}`);
    }
  }
}

function actionFailure(action: MenuAction): string {
  switch (action.kind) {
    case 'toggleServer':
      return `Could not switch ${action.server} ${action.enable ? 'on' : 'off'}`;
    case 'openSettings':
      return 'Could not open the settings';
    case 'toggleStartAtLogin':
      return `Could not ${action.enable ? 'turn on' : 'turn off'} start at login`;
    case 'startDaemon':
      return 'Could not start the Blitz daemon';
    case 'quitTray':
    case 'quitBlitz':
      return 'Could not quit';
    default: {
      const _exhaustive: never = action;
      return _exhaustive;
    }
  }
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
