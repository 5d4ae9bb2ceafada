import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { buildCatalog, type CatalogEntry, type ServerTools } from '../catalog/build-catalog.js';
import { Catalog } from '../catalog/catalog.js';
import type { UnmatchedSetting } from '../catalog/unmatched-settings.js';
import type { ServerConnection } from '../connection/server-connection.js';
import type { CachedCatalogs } from './cached-catalogs.js';
import { catalogInputs, sameInputs } from './catalog-inputs.js';

/** A catalog as built for one agent, and the catalog warnings of each server found building it. */
export interface BuiltCatalog {
  catalog: Catalog<CatalogEntry>;
  warnings: ReadonlyMap<string, readonly string[]>;
  /** Each server's `tools` entries and `tool_exposure` keys matching none of its tools: worded when a status is asked for, with the line each is on then. */
  unmatched: ReadonlyMap<string, readonly UnmatchedSetting[]>;
  /** What it was built from (catalog-inputs.ts). */
  inputs: readonly unknown[];
  /** Changes (a new object) only when the offered servers' prompts and resources may have (Manager.listsKey). */
  lists: object;
  /** What `lists` stands for: the inputs, with a cached→live listing of the same content known by the cached one. */
  listsInputs: readonly unknown[];
}

export interface AgentCatalogsScope {
  /** The servers an agent is offered now, in settings order. */
  offeredTo(agent: string): ServerConnection[];
  /** What the catalog cache answers for servers not up yet. */
  cached: CachedCatalogs;
  /** The hub's own tool names; no server tool may shadow them (MCP-20). */
  builtIns: readonly string[];
  /** Which of a listing's tools are offered: those not held for review (pinned-tools.ts). */
  pinned(connection: ServerConnection, tools: Tool[]): Tool[];
}

/**
 * The tool catalog each agent of a workspace is offered, built from what its servers list now
 * (or the catalog cache answers for them), and kept: built once until `changed`, and a rebuild
 * from the same inputs keeps the catalog built before, so its identity tells a session cheaply
 * that nothing it is offered changed. Reading one never writes anything.
 */
export class AgentCatalogs {
  readonly #scope: AgentCatalogsScope;
  /** Built catalogs by agent; any event of a connection may change them, and drops them all. */
  readonly #built = new Map<string, BuiltCatalog>();
  /** The catalogs last built, by agent: a rebuild from the same inputs keeps the same catalog. */
  readonly #lastBuilt = new Map<string, BuiltCatalog>();
  /** Each server's tools when last listed, so a paused server's tool is still known by name (MCP-32). */
  readonly #lastTools = new WeakMap<ServerConnection, Tool[]>();

  constructor(scope: AgentCatalogsScope) {
    this.#scope = scope;
  }

  /** What a connection's change may have changed: each catalog is built again when next asked for. */
  changed(): void {
    this.#built.clear();
  }

  /** The manager closed: nothing built is kept. */
  clear(): void {
    this.#built.clear();
    this.#lastBuilt.clear();
  }

  of(agent: string): BuiltCatalog {
    const known = this.#built.get(agent);
    if (known) return known;
    const offered = this.#scope.offeredTo(agent);
    // A server not up yet may be listed from the catalog cache; undefined: it lists nothing.
    const listed = offered.map((c) => {
      const tools = c.ready ? c.currentTools() : this.#scope.cached.servable(c)?.tools;
      return tools && this.#scope.pinned(c, tools);
    });
    const tools = listed.map((t) => t ?? []);
    offered.forEach((c, i) => {
      if (tools[i]!.length > 0) this.#lastTools.set(c, tools[i]!);
    });
    const inputs = catalogInputs(offered, listed);
    const last = this.#lastBuilt.get(agent);
    if (last && sameInputs(last.inputs, inputs)) {
      this.#built.set(agent, last);
      return last;
    }
    const { entries, warnings, unmatched } = buildCatalog(
      offered.map((c, i) => catalogSource(c, tools[i]!)),
      this.#scope.builtIns,
    );
    const listsInputs = catalogInputs(
      offered,
      listed.map((t) => this.#scope.cached.listsKey(t)),
    );
    const lists = last && sameInputs(last.listsInputs, listsInputs) ? last.lists : {};
    const built = { catalog: new Catalog(entries), warnings, unmatched, inputs, lists, listsInputs };
    this.#built.set(agent, built);
    this.#lastBuilt.set(agent, built);
    return built;
  }

  /**
   * The entry `exposedName` would be with every tool the servers of `usable` listed, those held
   * for review included, and the `paused` servers' last tools.
   */
  entryAsListed(usable: readonly ServerConnection[], paused: ReadonlySet<ServerConnection>, exposedName: string): CatalogEntry | undefined {
    const { entries } = buildCatalog(
      usable.map((c) => catalogSource(c, paused.has(c) ? (this.#lastTools.get(c) ?? []) : c.currentTools())),
      this.#scope.builtIns,
    );
    return entries.find((e) => e.exposedName === exposedName);
  }
}

/** A server's tools with the settings that shape them in the catalog. */
function catalogSource(c: ServerConnection, tools: Tool[]): ServerTools {
  return {
    server: c.name,
    ...(c.config.prefix === undefined ? {} : { prefix: c.config.prefix }),
    ...(c.config.source.kind === 'project' ? { project: true } : {}),
    ...(c.config.tools === undefined ? {} : { allow: c.config.tools }),
    ...(c.config.exposure === undefined ? {} : { exposure: c.config.exposure }),
    ...(c.config.toolExposure === undefined ? {} : { toolExposure: c.config.toolExposure }),
    tools,
  };
}
