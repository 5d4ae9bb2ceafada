import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';
import type systray2 from 'systray2';
import type { ClickEvent } from 'systray2';
import type { MenuAction, MenuModel } from '../menu/menu-model.js';
import type { TraySurface } from '../tray-app.js';
import { ensureHelperExecutable } from './helper-binary.js';
import { changedItems, entryAt, initialMenu, serverSlots, slotItems, type NumberedItem } from './slot-layout.js';
import { trayIcon } from './tray-icon.js';

// systray2 is CommonJS with `exports.default`, which ESM loaders unwrap differently (Node
// gives the exports object, Vite the class); `require` gives the same thing everywhere.
const SysTray: typeof systray2.default = (createRequire(import.meta.url)('systray2') as typeof systray2).default;
type SysTray = InstanceType<typeof SysTray>;

export interface SystraySurfaceOptions {
  platform: NodeJS.Platform;
  /** The process's working directory, where systray2 looks for `./traybin/` first. */
  cwd: string;
  onAction(action: MenuAction): void;
  /** Called once when the helper goes away by itself after it was ready (crash, display lost). */
  onHelperExit(error: Error): void;
  readyTimeoutMs?: number;
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
 * The menu drawn by systray2's helper process. The helper's menu has a fixed shape, so the
 * model is laid out on slots (slot-layout.ts); a redraw sends `update-item` for the slots
 * that changed, with fresh objects, and a model needing more server slots restarts it.
 */
export class SystraySurface implements TraySurface {
  readonly #opts: SystraySurfaceOptions;
  #tray: SysTray | undefined;
  #child: ChildProcess | undefined;
  #capacity = 0;
  #model: MenuModel | undefined;
  #items: NumberedItem[] = [];
  #closed = false;

  constructor(opts: SystraySurfaceOptions) {
    this.#opts = opts;
  }

  async show(model: MenuModel): Promise<void> {
    if (this.#closed) return;
    const capacity = serverSlots(model, this.#capacity);
    const tray = this.#tray;
    if (!tray || capacity !== this.#capacity) {
      await this.#stopHelper();
      await this.#startHelper(model, capacity);
      return;
    }
    const previous = this.#model!;
    const items = slotItems(model, capacity, this.#opts.platform);
    for (const item of changedItems(this.#items, items)) await tray.sendAction({ type: 'update-item', item, seq_id: -1 });
    if (previous.icon !== model.icon || previous.tooltip !== model.tooltip) {
      await tray.sendAction({ type: 'update-menu', menu: { icon: trayIcon(model.icon, this.#opts.platform), title: '', tooltip: model.tooltip, items: [] } });
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
    ensureHelperExecutable(platform, cwd);
    const tray = new SysTray({ menu: initialMenu(model, capacity, platform, trayIcon(model.icon, platform)), debug: false, copyDir: false });
    const ready = tray.ready();
    // Raced below; this keeps an early spawn error from being reported as unhandled meanwhile.
    ready.catch(() => undefined);
    const child = await helperProcess(tray, ready);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-STDERR_TAIL)));
    // A dead helper's stdin errors with EPIPE on the next write; its exit is reported instead.
    child.stdin?.on('error', () => undefined);
    const exited = new Promise<string>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(exitText(child.exitCode, child.signalCode));
      child.once('exit', (code, signal) => resolve(exitText(code, signal)));
    });
    const timeoutMs = this.#opts.readyTimeoutMs ?? 20_000;
    const timeout = new AbortController();
    const outcome = await Promise.race([
      ready.then(() => ({ ready: true as const })),
      exited.then((how) => ({ ready: false as const, why: `the tray helper ${how} before it was ready` })),
      delay(timeoutMs, undefined, { signal: timeout.signal }).then(() => ({ ready: false as const, why: `the tray helper was not ready within ${timeoutMs / 1000}s` })),
    ])
      .catch((err: unknown) => ({ ready: false as const, why: `the tray helper could not start: ${(err as Error).message}` }))
      .finally(() => timeout.abort());
    if (!outcome.ready) {
      child.kill('SIGKILL');
      const detail = stderr.trim().split('\n').slice(-5).join('\n');
      throw new TrayHelperError(detail ? `${outcome.why}:\n${detail}` : outcome.why);
    }
    this.#tray = tray;
    this.#child = child;
    this.#capacity = capacity;
    this.#model = model;
    this.#items = slotItems(model, capacity, platform);
    await tray.onClick((event) => this.#clicked(event));
    void exited.then((how) => {
      if (this.#child === child && !this.#closed) this.#opts.onHelperExit(new TrayHelperError(`the tray helper ${how}${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`));
    });
  }

  #clicked(event: ClickEvent): void {
    if (!this.#model) return;
    const entry = entryAt(this.#model, this.#capacity, event.__id);
    if (entry?.kind === 'check' || (entry?.kind === 'button' && entry.enabled)) this.#opts.onAction(entry.action);
  }

  async #stopHelper(): Promise<void> {
    const tray = this.#tray;
    const child = this.#child;
    this.#tray = undefined;
    this.#child = undefined;
    if (!tray || !child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await tray.sendAction({ type: 'exit' }).catch(() => undefined);
    const kill = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
    await gone;
    clearTimeout(kill);
  }
}

/**
 * systray2 spawns its helper after an async look-up and offers no hook for it, and its
 * `ready()` never settles when the helper exits early: wait for the process to exist, so
 * its exit can be watched.
 */
async function helperProcess(tray: SysTray, ready: Promise<void>): Promise<ChildProcess> {
  let failure: Error | undefined;
  ready.catch((err: unknown) => (failure = err instanceof Error ? err : new Error(String(err))));
  for (let i = 0; i < 1_000; i++) {
    if (tray.process) return tray.process;
    if (failure) throw new TrayHelperError(`the tray helper could not start: ${failure.message}`);
    await delay(5);
  }
  throw new TrayHelperError('the tray helper was not started within 5s');
}

function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}
