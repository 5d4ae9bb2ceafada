import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import type { NumberedItem, NumberedMenu } from './slot-layout.js';

/** What the helper is sent: one JSON object a line (systray2's protocol). */
export type HelperAction =
  | { type: 'update-item'; item: NumberedItem; seq_id: number }
  | { type: 'update-menu'; menu: Omit<NumberedMenu, 'items'> & { items: NumberedItem[] } }
  | { type: 'exit' };

/** A click, as the helper reports it. */
export interface HelperClick {
  __id: number;
}

/**
 * The program name the helper runs under. On Linux the indicator library takes the
 * StatusNotifierItem's Title from it, and panels show that Title as the icon's tooltip:
 * systray2's own spawn left it "tray_linux_release".
 */
export const HELPER_PROGRAM_NAME = 'Blitz';

/**
 * systray2's helper process, spoken to directly: systray2's JavaScript side spawns it with
 * no say over its program name, and its `ready()` never settles when the helper dies early.
 * The menu comes numbered (slot-layout.ts numbers items as the helper expects), and is sent
 * once the helper says it is ready.
 */
export class HelperProcess {
  readonly child: ChildProcess;
  /** Settles when the helper said it is ready and has been sent the menu. */
  readonly ready: Promise<void>;
  /** Resolves with how the helper ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #clicks: ((click: HelperClick) => void)[] = [];

  constructor(file: string, menu: NumberedMenu) {
    this.child = spawn(file, [], { argv0: HELPER_PROGRAM_NAME, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    // A dead helper's stdin errors with EPIPE on the next write; its exit is reported instead.
    this.child.stdin!.on('error', () => undefined);
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    const lines = readline.createInterface({ input: this.child.stdout! });
    this.ready = new Promise<void>((resolve, reject) => {
      this.child.once('error', reject);
      lines.on('line', (line) => {
        let message: { type?: unknown; __id?: unknown };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          return; // Not a protocol line (the helper's own logging).
        }
        if (message.type === 'ready') {
          this.#write(menu);
          resolve();
        } else if (message.type === 'clicked' && typeof message.__id === 'number') {
          for (const listener of this.#clicks) listener({ __id: message.__id });
        }
      });
    });
  }

  onClick(listener: (click: HelperClick) => void): void {
    this.#clicks.push(listener);
  }

  send(action: HelperAction): void {
    this.#write(action);
  }

  #write(message: unknown): void {
    if (this.child.stdin?.writable) this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }
}
