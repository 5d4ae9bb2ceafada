import fs from 'node:fs';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '@blitz/clock';
import { CoalescedWrites } from '../files/coalesced-writes.js';
import { diffDefinitions, type FieldChange } from './definition-diff.js';
import { definitionFingerprint, toolDefinition, type ToolDefinition } from './tool-definition.js';

/** Whose pins these are: a global server (every workspace's copy) or one project's server, and how it is launched. */
export interface PinKey {
  /** `global:<name>` or `project:<workspace>:<name>` (pin-key.ts). */
  id: string;
  server: string;
  workspace?: string;
  /** A hash of the server's launch config: the user editing it is trusting it afresh. */
  launch: string;
}

export interface PinnedTool {
  fingerprint: string;
  definition: ToolDefinition;
}

/** A definition listed that differs from the pinned one (or a tool new since the pin), waiting for the user. */
export interface PendingTool extends PinnedTool {
  /** When it was first listed so (ms on the clock). */
  seenAt: number;
}

/** One server's line in `state/pins.jsonl`. */
export interface PinRecord {
  id: string;
  server: string;
  workspace?: string;
  launch: string;
  pinnedAt: number;
  tools: Record<string, PinnedTool>;
  pending: Record<string, PendingTool>;
}

export type ReviewChange = 'changed' | 'new';

/** A tool in review, as `blitz mcp review` and the page show it. */
export interface ToolReview {
  tool: string;
  change: ReviewChange;
  /** ISO 8601: when it was first listed so. */
  seenAt: string;
  fields: FieldChange[];
}

/** What one listing of a pinned server decided: the tools held for review, and those it put in review first (a notice names each once). */
export interface ListingVerdict {
  held: ReadonlyMap<string, ReviewChange>;
  fresh: readonly string[];
}

export interface PinStoreOptions {
  /** `state/pins.jsonl` under BLITZ_HOME. */
  file: string;
  clock: Clock;
  /** A file that could not be read (each bad line with its number) or written: for the log and a notice. */
  warn(message: string): void;
}

const NOTHING_HELD: ListingVerdict = { held: new Map(), fresh: [] };

/**
 * The pinned tool definitions of every server (issue 31): the first listing after the user
 * added or trusted a server pins each tool's definition (its SHA-256 and the definition, so a
 * review can show the difference); a later listing whose definition of a tool differs, or a
 * tool new since, is held for review until `accept`. A JSON line a server; a line that cannot
 * be read is reported with its number and the file set aside as `<file>.corrupt` before the
 * first write, never written over. Writes are atomic (0600) and coalesced; `flush` waits for them.
 */
export class PinStore {
  readonly #opts: PinStoreOptions;
  readonly #records = new Map<string, PinRecord>();
  /** Bumped at each acceptance: verdicts given before may no longer hold. */
  #generation = 0;
  readonly #writes: CoalescedWrites;

  constructor(opts: PinStoreOptions) {
    this.#opts = opts;
    this.#writes = new CoalescedWrites(
      opts.file,
      () => [...this.#records.values()].map((r) => `${JSON.stringify(r)}\n`).join(''),
      (err) => opts.warn(`pinned tool definitions ${opts.file} not written: ${err.message}`),
    );
    this.#load();
  }

  get file(): string {
    return this.#opts.file;
  }

  get generation(): number {
    return this.#generation;
  }

  record(id: string): PinRecord | undefined {
    return this.#records.get(id);
  }

  /**
   * A server listed these tools. The first listing (or the first since its launch config
   * changed) pins them all; after that a tool whose definition is not the pinned one is held.
   * A tool back to its pinned definition leaves review; one no longer listed is just gone.
   */
  listed(key: PinKey, tools: readonly Tool[]): ListingVerdict {
    const known = this.#records.get(key.id);
    const now = this.#opts.clock.now();
    if (!known || known.launch !== key.launch) {
      const pinned = Object.fromEntries(tools.map((t) => [t.name, pin(t)]));
      this.#records.set(key.id, {
        id: key.id,
        server: key.server,
        ...(key.workspace === undefined ? {} : { workspace: key.workspace }),
        launch: key.launch,
        pinnedAt: now,
        tools: pinned,
        pending: {},
      });
      this.#schedule();
      return NOTHING_HELD;
    }
    const held = new Map<string, ReviewChange>();
    const fresh: string[] = [];
    const pending: Record<string, PendingTool> = {};
    let changed = false;
    for (const tool of tools) {
      const seen = pin(tool);
      const pinned = known.tools[tool.name];
      if (pinned?.fingerprint === seen.fingerprint) continue;
      held.set(tool.name, pinned ? 'changed' : 'new');
      const before = known.pending[tool.name];
      if (before?.fingerprint === seen.fingerprint) pending[tool.name] = before;
      else {
        pending[tool.name] = { ...seen, seenAt: now };
        fresh.push(tool.name);
        changed = true;
      }
    }
    if (changed || Object.keys(known.pending).length !== Object.keys(pending).length) {
      this.#records.set(key.id, { ...known, pending });
      this.#schedule();
    }
    return held.size === 0 ? NOTHING_HELD : { held, fresh };
  }

  /** The tools of a server in review, each with what changed field by field. */
  reviews(id: string): ToolReview[] {
    const record = this.#records.get(id);
    if (!record) return [];
    return Object.entries(record.pending).map(([tool, seen]) => {
      const pinned = record.tools[tool];
      return {
        tool,
        change: pinned ? 'changed' : 'new',
        seenAt: new Date(seen.seenAt).toISOString(),
        fields: diffDefinitions(pinned?.definition, seen.definition),
      };
    });
  }

  /** Pins the definitions in review (these tools only, when named); returns the tools pinned. */
  accept(id: string, tools?: readonly string[]): string[] {
    const record = this.#records.get(id);
    if (!record) return [];
    const chosen = Object.keys(record.pending).filter((t) => tools === undefined || tools.includes(t));
    if (chosen.length === 0) return [];
    const pinned = { ...record.tools };
    const pending = { ...record.pending };
    for (const tool of chosen) {
      const { seenAt: _seen, ...definition } = pending[tool]!;
      pinned[tool] = definition;
      delete pending[tool];
    }
    this.#records.set(id, { ...record, tools: pinned, pending });
    this.#generation++;
    this.#schedule();
    return chosen;
  }

  /** Settles once every change so far is on disk (or its write failed, reported). */
  flush(): Promise<void> {
    return this.#writes.flush();
  }

  #schedule(): void {
    this.#writes.changed();
  }

  #load(): void {
    let text: string;
    try {
      text = fs.readFileSync(this.#opts.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.#opts.warn(
          `pinned tool definitions ${this.#opts.file} not read (${(err as Error).message}); every server is pinned afresh at its next listing`,
        );
      return;
    }
    const bad: string[] = [];
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      const problem = this.#parseLine(line);
      if (problem !== undefined) bad.push(`line ${i + 1}: ${problem}`);
    });
    if (bad.length === 0) return;
    const aside = `${this.#opts.file}.corrupt`;
    let moved = true;
    try {
      fs.renameSync(this.#opts.file, aside);
    } catch {
      moved = false;
    }
    this.#opts.warn(
      `pinned tool definitions ${this.#opts.file}: ${bad.join('; ')}; ${moved ? `the file is set aside as ${aside}, ` : ''}the servers of those lines are pinned afresh at their next listing`,
    );
  }

  #parseLine(line: string): string | undefined {
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (err) {
      return `not JSON (${(err as Error).message})`;
    }
    if (!isRecord(data)) return 'not a server\'s pins ({"id", "server", "launch", "pinnedAt", "tools", "pending"})';
    this.#records.set(data.id, data);
    return undefined;
  }
}

function pin(tool: Tool): PinnedTool {
  const definition = toolDefinition(tool);
  return { fingerprint: definitionFingerprint(definition), definition };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPinned(value: unknown): value is PinnedTool {
  return (
    isObject(value) && typeof value.fingerprint === 'string' && isObject(value.definition) && typeof value.definition.name === 'string'
  );
}

function isRecord(value: unknown): value is PinRecord {
  if (!isObject(value)) return false;
  const { id, server, launch, pinnedAt, tools, pending } = value;
  if (typeof id !== 'string' || typeof server !== 'string' || typeof launch !== 'string' || typeof pinnedAt !== 'number') return false;
  if (value.workspace !== undefined && typeof value.workspace !== 'string') return false;
  if (!isObject(tools) || !Object.values(tools).every(isPinned)) return false;
  return isObject(pending) && Object.values(pending).every((p) => isPinned(p) && typeof (p as PendingTool).seenAt === 'number');
}
