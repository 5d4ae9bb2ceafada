import type { CatalogEntry, DeferredMode } from '@blitz/core';

/** What one session is shown of its catalog: the tools it lists, and those it finds by search. */
export interface DeferredListing {
  listed: CatalogEntry[];
  /** Callable through `call_tool` and found by `search_tools`, not in `tools/list` (yet). */
  deferred: CatalogEntry[];
  /** The hub defers on its own (`always`, or `auto` past the limit): tools left to it are deferred. */
  deferring: boolean;
  /** `search_tools` and `call_tool` are offered: something is, or was, deferred. */
  offersSearch: boolean;
  /** Some tool of the session is the hub's to defer now, whether a search activated it since or not. */
  defersAny: boolean;
  /** The limit the split was made for: its client's `max_tools`. */
  maxTools: number;
  /**
   * How many tools a search may activate before the list holds `maxTools` (issue 25.8); those
   * `kept` by use make way for them.
   */
  room: number;
  /** Tools left to the hub that `auto` keeps listed past the limit, by use then order (issue 26.7); part of `listed`. */
  kept: CatalogEntry[];
}

export interface ListingInput {
  entries: readonly CatalogEntry[];
  mode: DeferredMode;
  /** The most tools the session's client should be listed (`[hub] max_tools`, by client). */
  maxTools: number;
  /** Tools the hub lists besides the catalog's, counted against the limit. */
  builtIns: number;
  /** Deferred tools a search made part of this session's list (listed while the limit has room). */
  activated: ReadonlySet<string>;
  /** How often a tool was called (tool-use.ts): past the limit, the most used are the ones kept listed. */
  uses?: (entry: CatalogEntry) => number;
}

/**
 * Splits a session's catalog into listed and deferred tools (issue 16): a tool marked
 * `direct` is always listed and one marked `deferred` never is until a search activates it;
 * tools left to the hub (`default`) are listed unless the hub defers — always with `always`,
 * with `auto` when listing them all would pass the session's limit, never with `never`.
 * `auto` past the limit is no cliff (issue 26.7): the list keeps as many of them as the limit
 * has room for, the most used first, then in catalog (server) order; the rest are deferred.
 * A tool a search activated is listed only while the list stays within the limit, before
 * those kept by use (which it may displace; a lowered limit defers the last ones again): a
 * search never grows the list past `maxTools`.
 */
export function deferredListing({ entries, mode, maxTools, builtIns, activated, uses }: ListingInput): DeferredListing {
  const leftToHub = entries.filter((e) => e.exposure !== 'deferred').length;
  const deferring = mode === 'always' || (mode === 'auto' && builtIns + leftToHub > maxTools);
  const hubDefers = (entry: CatalogEntry) => entry.exposure === 'deferred' || (deferring && entry.exposure === 'default');
  let room = Math.max(0, maxTools - builtIns - entries.filter((e) => !hubDefers(e)).length);
  const shown = new Set<CatalogEntry>();
  for (const entry of entries) {
    if (!hubDefers(entry)) shown.add(entry);
    else if (activated.has(entry.exposedName) && room > 0) {
      shown.add(entry);
      room--;
    }
  }
  const kept =
    mode === 'auto' && deferring
      ? keptByUse(
          entries.filter((e) => e.exposure === 'default' && !shown.has(e)),
          room,
          uses,
        )
      : [];
  for (const entry of kept) shown.add(entry);
  const listed = entries.filter((e) => shown.has(e));
  const deferred = entries.filter((e) => !shown.has(e));
  const defersAny = entries.some(hubDefers);
  const offersSearch = deferred.length > 0 || entries.some((e) => activated.has(e.exposedName));
  return { listed, deferred, kept, deferring, offersSearch, defersAny, maxTools, room };
}

/** The `room` most used of `candidates`, equal counts in catalog order. */
function keptByUse(candidates: readonly CatalogEntry[], room: number, uses: ((entry: CatalogEntry) => number) | undefined): CatalogEntry[] {
  if (room === 0) return [];
  const ranked = candidates.map((entry, i) => ({ entry, i, n: uses?.(entry) ?? 0 }));
  ranked.sort((a, b) => b.n - a.n || a.i - b.i);
  return ranked.slice(0, room).map((r) => r.entry);
}
