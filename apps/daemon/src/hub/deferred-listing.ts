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
}

export interface ListingInput {
  entries: readonly CatalogEntry[];
  mode: DeferredMode;
  /** The most tools the session's client should be listed (`[hub] max_tools`, by client). */
  maxTools: number;
  /** Tools the hub lists besides the catalog's, counted against the limit. */
  builtIns: number;
  /** Deferred tools a search made part of this session's list. */
  activated: ReadonlySet<string>;
}

/**
 * Splits a session's catalog into listed and deferred tools (issue 16): a tool marked
 * `direct` is always listed and one marked `deferred` never is until a search activates it;
 * tools left to the hub (`default`) are listed unless the hub defers — always with `always`,
 * with `auto` when listing them would pass the session's limit, never with `never`.
 */
export function deferredListing({ entries, mode, maxTools, builtIns, activated }: ListingInput): DeferredListing {
  const leftToHub = entries.filter((e) => e.exposure !== 'deferred').length;
  const deferring = mode === 'always' || (mode === 'auto' && builtIns + leftToHub > maxTools);
  const listed: CatalogEntry[] = [];
  const deferred: CatalogEntry[] = [];
  let defersAny = false;
  for (const entry of entries) {
    const hubDefers = entry.exposure === 'deferred' || (deferring && entry.exposure === 'default');
    defersAny ||= hubDefers;
    (hubDefers && !activated.has(entry.exposedName) ? deferred : listed).push(entry);
  }
  const offersSearch = deferred.length > 0 || entries.some((e) => activated.has(e.exposedName));
  return { listed, deferred, deferring, offersSearch, defersAny, maxTools };
}
