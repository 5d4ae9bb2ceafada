import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CachedCatalog, CachedList, CatalogCache } from '../catalog-cache/catalog-cache.js';
import { catalogCacheKey } from '../catalog-cache/catalog-cache-key.js';
import { sameContent } from '../catalog-cache/same-content.js';
import type { ServerConnection } from '../connection/server-connection.js';
import type { ServerAnnouncement } from './server-interest.js';

/** The items of each cached list. */
export type ListItems = { prompts: Prompt[]; resources: Resource[]; resourceTemplates: ResourceTemplate[] };

/** The capability a server declares for each list it may have. */
const CAPABILITY: Record<CachedList, 'prompts' | 'resources'> = {
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resources',
};

/**
 * One workspace's use of the catalog cache (issue 18, cold start). A server not started yet
 * in this daemon, or starting (its first start, or after a stop), is answered from its cached
 * listing when its launch config is the one cached: a listing need not wait for it, and it is
 * still started (a call to a cached tool waits for that start, as a cold call does). A
 * disabled server, one whose start failed (its tools go from the listing, as without a cache;
 * once paused, a call to one is refused in MCP-32's words), one that needs a sign-in, or one
 * whose settings cannot start it is never answered from the cache. Each successful listing
 * replaces the cached one; a server that asks for a sign-in is forgotten.
 */
export class CachedCatalogs {
  readonly #cache: () => CatalogCache | undefined;
  readonly #workspace: string;
  readonly #keys = new WeakMap<ServerConnection, string>();
  /** The tools last put for each connection, so a status that changes nothing puts nothing. */
  readonly #put = new WeakMap<ServerConnection, Tool[]>();
  /** What the cache answered for each connection at its last status (the entry, or undefined). */
  readonly #answered = new WeakMap<ServerConnection, CachedCatalog | undefined>();
  /** The connections that have been up: a start after the first is a restart. */
  readonly #wentLive = new WeakSet<ServerConnection>();
  /** A connection's first live tools, when they and its capabilities are those the cache answered with until then: those cached tools. */
  readonly #confirmed = new WeakMap<readonly Tool[], readonly Tool[]>();
  /** Each connection's last live listing, kept in memory whether or not there is a cache: what a reaped server is listed by. */
  readonly #lastLive = new WeakMap<ServerConnection, CachedCatalog>();
  /** Connections stopped to save memory (issue 32.1) and not up again since: listed as they were, never started by a listing. */
  readonly #resting = new WeakSet<ServerConnection>();

  constructor(cache: () => CatalogCache | undefined, workspace: string) {
    this.#cache = cache;
    this.#workspace = workspace;
  }

  /** The cached listing this server may be answered with now, if any. */
  servable(connection: ServerConnection): CachedCatalog | undefined {
    const phase = connection.phase;
    if (phase !== 'idle' && phase !== 'starting') return undefined;
    // Its own last listing first: the same tools, by identity, so its catalog does not change when it is reaped.
    if (this.#resting.has(connection)) return this.#lastLive.get(connection) ?? this.#entry(connection);
    return this.#entry(connection);
  }

  /** Stopped to save memory and not started since: a listing answers for it and does not start it. */
  resting(connection: ServerConnection): boolean {
    return this.#resting.has(connection) && connection.phase === 'idle';
  }

  /** Its cache entry, whatever its state (none for a disabled server). */
  #entry(connection: ServerConnection): CachedCatalog | undefined {
    const cache = this.#cache();
    if (!cache || connection.config.disabled) return undefined;
    return cache.get(this.#key(connection));
  }

  /** A cached list of a server not up yet: its items, none when it declared no such capability, undefined when not known. */
  list<L extends CachedList>(connection: ServerConnection, list: L): ListItems[L] | undefined {
    const cached = this.servable(connection);
    if (!cached) return undefined;
    if (!cached.capabilities[CAPABILITY[list]]) return [];
    return cached[list] as ListItems[L] | undefined;
  }

  /**
   * The connection's status changed: a new listing is kept; a server asking for a sign-in is
   * forgotten. Returns whether what the cache answers for it changed (it was answered from the
   * cache and no longer is, or the other way): its catalog then changes even if its tools did not.
   */
  statusChanged(connection: ServerConnection, announced: ServerAnnouncement | undefined): boolean {
    const before = this.#answered.has(connection) ? this.#answered.get(connection) : this.#entry(connection);
    const rested = this.#resting.has(connection);
    if (connection.reaped) this.#resting.add(connection);
    else if (connection.phase !== 'starting') this.#resting.delete(connection);
    // A reaped server's start after is no restart either when it lists the same.
    if (connection.ready && (!this.#wentLive.has(connection) || rested)) {
      this.#wentLive.add(connection);
      const tools = connection.currentTools();
      if (before && sameContent(before.tools, tools) && sameContent(before.capabilities, connection.serverCapabilities()))
        this.#confirmed.set(tools, this.listsKey(before.tools)!);
    }
    this.#keepLive(connection, announced);
    const cache = this.#cache();
    if (cache && connection.phase === 'needsSignIn') {
      this.#put.delete(connection);
      cache.forget(connection.name);
    } else if (cache) this.#remember(cache, connection, announced);
    const now = this.servable(connection);
    this.#answered.set(connection, now);
    return now !== before;
  }

  /** The live listing in memory, for when the server is reaped; a new one keeps the lists clients asked for. */
  #keepLive(connection: ServerConnection, announced: ServerAnnouncement | undefined): void {
    const capabilities = connection.serverCapabilities();
    const tools = connection.currentTools();
    const last = this.#lastLive.get(connection);
    if (!connection.ready || !capabilities || last?.tools === tools) return;
    this.#lastLive.set(connection, {
      ...(last ? pickLists(last) : {}),
      server: connection.name,
      tools,
      capabilities,
      ...(announced?.instructions === undefined ? {} : { instructions: announced.instructions }),
      ...(announced?.serverInfo ? { serverInfo: announced.serverInfo } : {}),
      savedAt: 0,
    });
  }

  #remember(cache: CatalogCache, connection: ServerConnection, announced: ServerAnnouncement | undefined): void {
    const capabilities = connection.serverCapabilities();
    if (!connection.ready || !capabilities) return;
    const tools = connection.currentTools();
    if (this.#put.get(connection) === tools) return;
    this.#put.set(connection, tools);
    // `put` keeps only the fields that are there.
    cache.put(this.#key(connection), {
      server: connection.name,
      tools,
      capabilities,
      instructions: announced?.instructions,
      serverInfo: announced?.serverInfo,
    });
  }

  /**
   * What a server's prompts and resources are known by, given what its tools are listed from
   * (`listed`: its live tools, or the cached ones): that listing — except the first live one of
   * a server answered from the cache until then with the same tools and capabilities, known by
   * the cached one. A cold start's cached→live step of the same server is no change of them; a
   * restart (a later start), or a server that came or went, is.
   */
  listsKey(listed: readonly Tool[] | undefined): readonly Tool[] | undefined {
    return (listed && this.#confirmed.get(listed)) ?? listed;
  }

  /** A client listed this server's prompts, resources or templates from the server itself. */
  listed<L extends CachedList>(connection: ServerConnection, list: L, items: ListItems[L]): void {
    if (!connection.ready) return;
    this.#cache()?.putList(this.#key(connection), list, items);
    const last = this.#lastLive.get(connection);
    if (last) this.#lastLive.set(connection, { ...last, [list]: items });
  }

  /** What a session is told of a server not up yet: its cached capabilities and instructions. */
  announced(connection: ServerConnection): ServerAnnouncement | undefined {
    const cached = this.servable(connection);
    if (!cached) return undefined;
    return {
      capabilities: cached.capabilities,
      ...(cached.instructions === undefined ? {} : { instructions: cached.instructions }),
      ...(cached.serverInfo ? { serverInfo: cached.serverInfo } : {}),
    };
  }

  #key(connection: ServerConnection): string {
    let key = this.#keys.get(connection);
    if (key === undefined) {
      key = catalogCacheKey(connection.config, this.#workspace);
      this.#keys.set(connection, key);
    }
    return key;
  }
}

/** The lists a client asked for, of a listing. */
function pickLists(entry: CachedCatalog): Partial<Pick<CachedCatalog, CachedList>> {
  return {
    ...(entry.prompts ? { prompts: entry.prompts } : {}),
    ...(entry.resources ? { resources: entry.resources } : {}),
    ...(entry.resourceTemplates ? { resourceTemplates: entry.resourceTemplates } : {}),
  };
}
