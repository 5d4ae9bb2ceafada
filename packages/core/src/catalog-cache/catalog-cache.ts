import fs from 'node:fs';
import type { Implementation, Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '@blitz/clock';
import type { EraMemory } from '../eras/era-memory.js';
import type { Era } from '../eras/modern-server-transport.js';
import { CoalescedWrites } from '../files/coalesced-writes.js';
import { catalogCacheKey } from './catalog-cache-key.js';
import { sameContent } from './same-content.js';

/** What a server said of itself when it was last listed: what a cold start may answer with before it is up. */
export interface CachedCatalog {
  /** The server's name, for logs and `forget`; the key is the launch fingerprint (catalog-cache-key.ts). */
  server: string;
  tools: Tool[];
  capabilities: ServerCapabilities;
  instructions?: string;
  serverInfo?: Implementation;
  /** Known once a client listed them; absent, a listing waits for the server. */
  prompts?: Prompt[];
  resources?: Resource[];
  resourceTemplates?: ResourceTemplate[];
  /** When this entry's content last changed (ms on the clock): the oldest go first past `maxEntries`. */
  savedAt: number;
}

export type CachedList = 'prompts' | 'resources' | 'resourceTemplates';

/** What `put` is given: what a successful start learned (the lists a client asked for are kept). */
export type StartListing = Pick<CachedCatalog, 'server' | 'tools' | 'capabilities' | 'instructions' | 'serverInfo'>;

export interface CatalogCacheOptions {
  /** `state/catalog-cache.json` under BLITZ_HOME. */
  file: string;
  clock: Clock;
  /** A log line: a file that could not be read or written. */
  warn(message: string): void;
  /** At most this many servers' entries are kept (default 256). */
  maxEntries?: number;
}

const VERSION = 1;
const DEFAULT_MAX_ENTRIES = 256;

/**
 * The daemon's catalog cache (issue 18, cold start): each server's tools, prompts, resources,
 * templates, capabilities, instructions and server info as last listed, filed under a hash of
 * its launch config. Read once when made; a file that cannot be parsed is set aside as
 * `<file>.corrupt` with a log line, never written over. Writes are atomic (0600), coalesced, and
 * made only when an entry's content changed; `flush` waits for them.
 */
export class CatalogCache {
  readonly #opts: CatalogCacheOptions;
  readonly #entries = new Map<string, CachedCatalog>();
  /** The era each server was last found to speak (eras/), under the same keys; kept apart, as it is known before a listing is. */
  readonly #eras = new Map<string, Era>();
  readonly #writes: CoalescedWrites;

  constructor(opts: CatalogCacheOptions) {
    this.#opts = opts;
    this.#writes = new CoalescedWrites(
      opts.file,
      () => `${JSON.stringify({ version: VERSION, entries: Object.fromEntries(this.#entries), eras: Object.fromEntries(this.#eras) })}\n`,
      (err) => opts.warn(`catalog cache ${opts.file} not written: ${err.message}`),
    );
    this.#load();
  }

  get file(): string {
    return this.#opts.file;
  }

  get(key: string): CachedCatalog | undefined {
    return this.#entries.get(key);
  }

  /** A server started and listed its tools: its entry, keeping the lists clients asked for before. */
  put(key: string, listing: StartListing): void {
    const previous = this.#entries.get(key);
    const { savedAt: _at, ...kept } = previous ?? { savedAt: 0 };
    const lists = previous ? pickLists(previous) : {};
    const next = { ...lists, server: listing.server, tools: listing.tools, capabilities: listing.capabilities, ...optional(listing) };
    if (previous && sameContent(kept, next)) return;
    this.#set(key, { ...next, savedAt: this.#opts.clock.now() });
  }

  /** A client listed this server's prompts, resources or templates: kept beside its tools (only once its tools are); by `put`'s rule, the same content in another key order is no change. */
  putList(key: string, list: CachedList, items: Prompt[] | Resource[] | ResourceTemplate[]): void {
    const previous = this.#entries.get(key);
    if (!previous || sameContent(previous[list], items)) return;
    this.#set(key, { ...previous, [list]: items, savedAt: this.#opts.clock.now() });
  }

  /** The era of the server filed under `key`, as last found. */
  era(key: string): Era | undefined {
    return this.#eras.get(key);
  }

  /** Files the era a server was found to speak; the oldest verdicts go first past twice `maxEntries`. */
  setEra(key: string, era: Era): void {
    if (this.#eras.get(key) === era) return;
    this.#eras.delete(key);
    this.#eras.set(key, era);
    const max = 2 * (this.#opts.maxEntries ?? DEFAULT_MAX_ENTRIES);
    for (const oldest of this.#eras.keys()) {
      if (this.#eras.size <= max) break;
      this.#eras.delete(oldest);
    }
    this.#schedule();
  }

  /** Drops every entry of this server (it needs a sign-in, or its sign-in changed). */
  forget(server: string): void {
    for (const [key, entry] of this.#entries) {
      if (entry.server !== server) continue;
      this.#entries.delete(key);
      this.#schedule();
    }
  }

  /** Settles once every change so far is on disk (or its write failed, logged). */
  flush(): Promise<void> {
    return this.#writes.flush();
  }

  #set(key: string, entry: CachedCatalog): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    const max = this.#opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
    if (this.#entries.size > max) {
      const oldest = [...this.#entries].sort(([, a], [, b]) => a.savedAt - b.savedAt).slice(0, this.#entries.size - max);
      for (const [k] of oldest) this.#entries.delete(k);
    }
    this.#schedule();
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
        this.#opts.warn(`catalog cache ${this.#opts.file} not read (${(err as Error).message}); starting without it`);
      return;
    }
    const problem = this.#parse(text);
    if (problem === undefined) return;
    this.#entries.clear();
    this.#eras.clear();
    const aside = `${this.#opts.file}.corrupt`;
    let moved = true;
    try {
      fs.renameSync(this.#opts.file, aside);
    } catch {
      moved = false;
    }
    this.#opts.warn(
      `catalog cache ${this.#opts.file} ignored: ${problem}; ${moved ? `set aside as ${aside}, ` : ''}every server is listed afresh`,
    );
  }

  /** Fills the entries from the file's text; what is wrong with it, if anything. */
  #parse(text: string): string | undefined {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      return `not JSON (${(err as Error).message})`;
    }
    if (!isObject(data) || data.version !== VERSION || !isObject(data.entries)) return `not a version ${VERSION} catalog cache`;
    for (const [key, entry] of Object.entries(data.entries)) {
      if (!isEntry(entry)) return `entry ${key} is not a cached catalog`;
      this.#entries.set(key, entry);
    }
    // Files written before eras were kept have none.
    if (data.eras !== undefined && !isObject(data.eras)) return 'its eras are not an object';
    for (const [key, era] of Object.entries(data.eras ?? {})) {
      if (era !== 'modern' && era !== 'legacy') return `the era of ${key} is neither modern nor legacy`;
      this.#eras.set(key, era);
    }
    return undefined;
  }
}

/** The eras of a catalog cache (made on first use, if ever), as the connector keeps them. */
export function erasIn(cache: () => CatalogCache | undefined): EraMemory {
  return {
    recall: (config, workspace) => cache()?.era(catalogCacheKey(config, workspace)),
    remember: (config, workspace, era) => cache()?.setEra(catalogCacheKey(config, workspace), era),
  };
}

function optional(listing: StartListing): Partial<StartListing> {
  return {
    ...(listing.instructions === undefined ? {} : { instructions: listing.instructions }),
    ...(listing.serverInfo === undefined ? {} : { serverInfo: listing.serverInfo }),
  };
}

function pickLists(entry: CachedCatalog): Partial<Pick<CachedCatalog, CachedList>> {
  return {
    ...(entry.prompts ? { prompts: entry.prompts } : {}),
    ...(entry.resources ? { resources: entry.resources } : {}),
    ...(entry.resourceTemplates ? { resourceTemplates: entry.resourceTemplates } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isEntry(value: unknown): value is CachedCatalog {
  if (!isObject(value)) return false;
  const lists = ['prompts', 'resources', 'resourceTemplates'].every((k) => value[k] === undefined || Array.isArray(value[k]));
  return (
    typeof value.server === 'string' &&
    Array.isArray(value.tools) &&
    isObject(value.capabilities) &&
    typeof value.savedAt === 'number' &&
    lists
  );
}
