import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '@blitz/clock';
import type { CatalogCache } from '../catalog-cache/catalog-cache.js';
import type { ServerConfig } from '../config/server-config.js';
import type { PinReviewMode } from '../config/settings.js';
import type { Connector } from '../connection/connector.js';
import type { ConnectionDeps } from '../connection/connection-deps.js';
import type { PinStore } from '../pins/pin-store.js';
import type { ManagerEvent } from './manager-event.js';
import type { ServerPool } from './server-pool.js';

/** What a workspace's manager is made with (manager.ts). */
export interface ManagerOptions {
  workspace: string;
  connector: Connector;
  clock: Clock;
  /** The hub's own tool names; no server tool may shadow them (MCP-20). */
  builtIns?: readonly string[];
  capabilities?: ClientCapabilities;
  prepareClient?: ConnectionDeps['prepareClient'];
  onEvent?(event: ManagerEvent): void;
  /**
   * The daemon's pool, where every server connection is made (`share = true` ones once for
   * every workspace). It reports every server's state, failures and notices itself; this
   * manager hears only what changes its catalog. Without it the manager runs a pool of its own,
   * shares nothing, and reports those events as its own (`connector`, `capabilities` and
   * `prepareClient` are for that pool).
   */
  pool?: ServerPool;
  /**
   * The daemon's catalog cache, while `[hub] catalog_cache` is on: a server not up yet whose
   * launch config is cached is listed from it at once (cached-catalogs.ts).
   */
  catalogCache?: () => CatalogCache | undefined;
  /**
   * The daemon's pinned tool definitions (issue 31): a server's first listing pins its tools;
   * a tool whose definition changed since, or new since, is held for review.
   */
  pins?: () => PinStore | undefined;
  /** `[hub] pin_review`: a tool in review is not offered (`hide`, the default) or every call of it is asked (`ask`). */
  pinReview?: () => PinReviewMode;
  /** The line of a server's field in the file it was read from, where the settings loader knows it: a warning found once the server runs names it. */
  settingLine?(config: ServerConfig, field: string): number | undefined;
}
