import fs from 'node:fs';
import { systemClock, type Clock, type Timer } from '@blitz/clock';
import { writeTextAtomic } from '@blitz/core';

/**
 * How long after a call its count is saved, with every count changed meanwhile: a crash loses
 * at most this much, and a busy daemon writes the file twice a minute, not every few calls (an
 * atomic write with two fsyncs every 20 calls was 40 of the daemon's 94 µs of CPU a call
 * through `blitz connect` at 16 in flight).
 */
export const SAVE_DELAY_MS = 30_000;
/** Tools remembered at most; the least used go first, so the file stays small. */
const MAX_TOOLS = 5_000;

export interface ToolUseOptions {
  /** `state/tool-use.json`; none: counts live as long as the daemon. */
  file?: string;
  warn?: (message: string) => void;
  clock?: Clock;
}

/** How often a tool was called: a function of server and original name. */
export type UseCounts = (server: string, tool: string) => number;

/**
 * How often each tool was called, by server and original name (so a prefix change keeps its
 * count), across sessions and daemon restarts (issue 26.7): past a client's `max_tools` the
 * most used tools stay listed. Written SAVE_DELAY_MS after a call and when the daemon stops.
 */
export class ToolUse {
  readonly #counts = new Map<string, number>();
  readonly #opts: ToolUseOptions;
  readonly #clock: Clock;
  /** The save due for the calls since the last one. */
  #due: Timer | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(opts: ToolUseOptions = {}) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#load();
  }

  record(server: string, tool: string): void {
    const key = keyOf(server, tool);
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    if (this.#opts.file !== undefined) this.#due ??= this.#clock.setTimeout(() => this.#save(), SAVE_DELAY_MS);
  }

  /** The counts as they are now, unchanged by later calls: a session ranks its tools once, so its list does not shift under it. */
  snapshot(): UseCounts {
    const counts = new Map(this.#counts);
    return (server, tool) => counts.get(keyOf(server, tool)) ?? 0;
  }

  /** Writes what is not written yet, and waits for every write. */
  async flush(): Promise<void> {
    if (this.#due) this.#save();
    await this.#writing;
  }

  /** Settles once the writes started so far are done; starts none. */
  whenWritten(): Promise<void> {
    return this.#writing;
  }

  #save(): void {
    this.#due?.cancel();
    this.#due = undefined;
    const file = this.#opts.file;
    if (file === undefined) return;
    const kept = [...this.#counts].sort((a, b) => b[1] - a[1]).slice(0, MAX_TOOLS);
    const tools: Record<string, Record<string, number>> = {};
    for (const [key, n] of kept) {
      const [server, tool] = key.split('\0') as [string, string];
      (tools[server] ??= {})[tool] = n;
    }
    const text = `${JSON.stringify({ tools }, null, 1)}\n`;
    // One write at a time, in order: the last one holds the latest counts.
    this.#writing = this.#writing
      .then(() => writeTextAtomic(file, text))
      .catch((err: unknown) => this.#opts.warn?.(`tool use counts not saved to ${file}: ${(err as Error).message}`));
  }

  #load(): void {
    const file = this.#opts.file;
    if (file === undefined) return;
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return; // none yet
    }
    try {
      const tools = (JSON.parse(text) as { tools?: unknown }).tools;
      if (typeof tools !== 'object' || tools === null) throw new Error('no "tools" object');
      for (const [server, of] of Object.entries(tools as Record<string, unknown>)) {
        for (const [tool, n] of Object.entries(of as Record<string, unknown>))
          if (typeof n === 'number' && n > 0) this.#counts.set(keyOf(server, tool), n);
      }
    } catch (err) {
      this.#opts.warn?.(`tool use counts in ${file} not read (${(err as Error).message}); counting afresh`);
    }
  }
}

function keyOf(server: string, tool: string): string {
  return `${server}\0${tool}`;
}
