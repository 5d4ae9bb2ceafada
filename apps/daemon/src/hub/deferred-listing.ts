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
  /** How many more tools a search may add to the list before it holds `maxTools` (issue 25.8). */
  room: number;
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
}

/**
 * Splits a session's catalog into listed and deferred tools (issue 16): a tool marked
 * `direct` is always listed and one marked `deferred` never is until a search activates it;
 * tools left to the hub (`default`) are listed unless the hub defers — always with `always`,
 * with `auto` when listing them would pass the session's limit, never with `never`. A tool a
 * search activated is listed only while the list stays within the limit (a lowered limit
 * defers the last ones again): a search never grows the list past `maxTools`.
 */
export function deferredListing({ entries, mode, maxTools, builtIns, activated }: ListingInput): DeferredListing {
  const leftToHub = entries.filter((e) => e.exposure !== 'deferred').length;
  const deferring = mode === 'always' || (mode === 'auto' && builtIns + leftToHub > maxTools);
  const hubDefers = (entry: CatalogEntry) => entry.exposure === 'deferred' || (deferring && entry.exposure === 'default');
  let room = Math.max(0, maxTools - builtIns - entries.filter((e) => !hubDefers(e)).length);
  const listed: CatalogEntry[] = [];
  const deferred: CatalogEntry[] = [];
  let defersAny = false;
  for (const entry of entries) {
    if (!hubDefers(entry)) listed.push(entry);
    else if (activated.has(entry.exposedName) && room > 0) {
      listed.push(entry);
      room--;
    } else deferred.push(entry);
    defersAny ||= hubDefers(entry);
  }
  const offersSearch = deferred.length > 0 || entries.some((e) => activated.has(e.exposedName));
  return { listed, deferred, deferring, offersSearch, defersAny, maxTools, room };
}
