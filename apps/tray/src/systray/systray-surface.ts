import { systemClock, type Clock } from '@blitz/clock';
import type { MenuAction, MenuModel } from '../menu/menu-model.js';
import type { TraySurface } from '../tray-app.js';
import { ensureHelperExecutable } from './helper-binary.js';
import { HelperProcess, type HelperClick } from './helper-process.js';
import { changedItems, entryAt, initialMenu, serverSlots, slotItems, type NumberedItem } from './slot-layout.js';
import { trayIcon } from './tray-icon.js';

export interface SystraySurfaceOptions {
  platform: NodeJS.Platform;
  /** The process's working directory, where systray2 looks for `./traybin/` first. */
  cwd: string;
  onAction(action: MenuAction): void;
  /** Called once when the helper goes away by itself after it was ready (crash, display lost). */
  onHelperExit(error: Error): void;
  readyTimeoutMs?: number;
  /** The ready timeout and the exit grace run on it (default: the system clock). */
  clock?: Clock;
}

/** The helper exited or failed before it was ready. */
export class TrayHelperError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrayHelperError';
  }
}

const STDERR_TAIL = 2_000;
const EXIT_GRACE_MS = 3_000;

/**
 * The menu drawn by systray2's helper process (spoken to by helper-process.ts). The helper's
 * menu has a fixed shape, so the model is laid out on slots (slot-layout.ts); a redraw sends
 * `update-item` for the slots that changed, and a model needing more server slots restarts it.
 */
export class SystraySurface implements TraySurface {
  readonly #opts: SystraySurfaceOptions;
  #helper: HelperProcess | undefined;
  #capacity = 0;
  #model: MenuModel | undefined;
  #items: NumberedItem[] = [];
  #closed = false;

  readonly #clock: Clock;

  constructor(opts: SystraySurfaceOptions) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
  }

  async show(model: MenuModel): Promise<void> {
    if (this.#closed) return;
    const capacity = serverSlots(model, this.#capacity);
    const helper = this.#helper;
    if (!helper || capacity !== this.#capacity) {
      await this.#stopHelper();
      await this.#startHelper(model, capacity);
      return;
    }
    const previous = this.#model!;
    const items = slotItems(model, capacity, this.#opts.platform);
    for (const item of changedItems(this.#items, items)) helper.send({ type: 'update-item', item, seq_id: -1 });
    if (previous.icon !== model.icon || previous.tooltip !== model.tooltip) {
      helper.send({
        type: 'update-menu',
        menu: { icon: trayIcon(model.icon, this.#opts.platform), title: '', tooltip: model.tooltip, items: [] },
      });
    }
    this.#items = items;
    this.#model = model;
  }

  /** Asks the helper to exit, and kills it if it does not. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#stopHelper();
  }

  async #startHelper(model: MenuModel, capacity: number): Promise<void> {
    const { platform, cwd } = this.#opts;
    const file = ensureHelperExecutable(platform, cwd);
    // No `title`: on macOS it is text beside the icon, on Linux the label beside it.
    const helper = new HelperProcess(file, initialMenu(model, capacity, platform, trayIcon(model.icon, platform)));
    const child = helper.child;
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-STDERR_TAIL)));
    const exited = helper.exited.then(({ code, signal }) => exitText(code, signal));
    const timeoutMs = this.#opts.readyTimeoutMs ?? 20_000;
    let timer: { cancel(): void } | undefined;
    const outcome = await Promise.race([
      helper.ready.then(() => ({ ready: true as const })),
      exited.then((how) => ({ ready: false as const, why: `the tray helper ${how} before it was ready` })),
      new Promise<{ ready: false; why: string }>((resolve) => {
        timer = this.#clock.setTimeout(
          () => resolve({ ready: false, why: `the tray helper was not ready within ${timeoutMs / 1000}s` }),
          timeoutMs,
        );
      }),
    ])
      .catch((err: unknown) => ({ ready: false as const, why: `the tray helper could not start: ${(err as Error).message}` }))
      .finally(() => timer?.cancel());
    if (!outcome.ready) {
      child.kill('SIGKILL');
      const detail = stderr.trim().split('\n').slice(-5).join('\n');
      throw new TrayHelperError(detail ? `${outcome.why}:\n${detail}` : outcome.why);
    }
    this.#helper = helper;
    this.#capacity = capacity;
    this.#model = model;
    this.#items = slotItems(model, capacity, platform);
    helper.onClick((click) => this.#clicked(click));
    void exited.then((how) => {
      if (this.#helper === helper && !this.#closed)
        this.#opts.onHelperExit(
          new TrayHelperError(`the tray helper ${how}${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`),
        );
    });
  }

  #clicked(click: HelperClick): void {
    if (!this.#model) return;
    const entry = entryAt(this.#model, this.#capacity, click.__id);
    if (entry?.kind === 'check' || (entry?.kind === 'button' && entry.enabled)) this.#opts.onAction(entry.action);
  }

  async #stopHelper(): Promise<void> {
    const helper = this.#helper;
    this.#helper = undefined;
    if (!helper) return;
    const child = helper.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    helper.send({ type: 'exit' });
    const kill = this.#clock.setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
    await helper.exited;
    kill.cancel();
  }
}

function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}
