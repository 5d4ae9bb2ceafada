import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  clientSurface,
  summaryText,
  ToolIndex,
  toolSummary,
  type Catalog,
  type CatalogEntry,
  type ClientSurface,
  type DeferredMode,
} from '@blitz/core';
import { deferredListing, type DeferredListing } from './deferred-listing.js';
import { RESOURCE_TOOLS } from './resource-tool-list.js';
import type { UseCounts } from './tool-use.js';
import type { SessionScope } from './session-scope.js';
import { toolError } from './tool-error.js';

export const SEARCH_TOOLS = 'search_tools';
export const CALL_TOOL = 'call_tool';
export const DEFERRED_TOOL_NAMES = [SEARCH_TOOLS, CALL_TOOL];
export const DEFAULT_SEARCH_LIMIT = 8;
export const MAX_SEARCH_LIMIT = 20;

/** The hub's tools for deferred tools (issue 16), offered whenever something is deferred. */
export const DEFERRED_TOOLS: Tool[] = [
  {
    name: SEARCH_TOOLS,
    description:
      'Finds tools of the MCP servers that are not in the tool list: describe the task in a few words (or give part of a tool name). ' +
      "Returns the best matches (name, server, what each does, its parameters; a tool's exact name returns its whole input schema), " +
      'and adds them to the tool list from now on while it has room. Call one with call_tool if it does not appear.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, or its name' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_SEARCH_LIMIT,
          description: `How many matches at most (default ${DEFAULT_SEARCH_LIMIT})`,
        },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: CALL_TOOL,
    description: 'Calls a tool found with search_tools by its name, with its arguments (for clients whose tool list does not update).',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The tool name search_tools returned' },
        arguments: { type: 'object', description: "The tool's arguments, as its input schema describes them" },
      },
      required: ['name'],
    },
  },
];

/** Use counts by catalog entry, as `deferredListing` ranks them. */
export const usesOfEntries =
  (uses: UseCounts) =>
  (entry: CatalogEntry): number =>
    uses(entry.server, entry.originalName);

/**
 * A client's split of `entries` by its surface: the hub's own tools count against its
 * `max_tools`; `activated`, what its searches added; `uses`, how often each was called.
 */
export function surfaceListing(
  entries: readonly CatalogEntry[],
  surface: ClientSurface,
  activated: ReadonlySet<string> = new Set(),
  uses?: (entry: CatalogEntry) => number,
): DeferredListing {
  return deferredListing({
    entries,
    mode: surface.deferred,
    maxTools: surface.maxTools,
    builtIns: RESOURCE_TOOLS.length + DEFERRED_TOOLS.length,
    activated,
    ...(uses === undefined ? {} : { uses }),
  });
}

/** What `tools/list` answers for a split: the hub's tools, then the listed ones. */
export function listedTools(listing: DeferredListing): Tool[] {
  return [...RESOURCE_TOOLS, ...(listing.offersSearch ? DEFERRED_TOOLS : []), ...listing.listed.map((e) => e.tool)];
}

/** One index per built catalog, shared by the sessions that see it; gone with the catalog. */
const indexes = new WeakMap<Catalog<CatalogEntry>, ToolIndex>();

/** The catalog's index; a server's instructions (from its last handshake) are words of its tools too. */
function indexOf(catalog: Catalog<CatalogEntry>, instructions: () => ReadonlyMap<string, string>): ToolIndex {
  let index = indexes.get(catalog);
  if (index === undefined) {
    const of = instructions();
    const tools = catalog.list().map((e) => {
      const serverInstructions = of.get(e.server);
      return serverInstructions === undefined ? e : { ...e, serverInstructions };
    });
    indexes.set(catalog, (index = new ToolIndex(tools)));
  }
  return index;
}

/**
 * One session's deferred tools: which of its catalog it lists, which it finds by search, and
 * the tools its searches activated, which it lists from then on (until the catalog drops them).
 */
export class DeferredTools {
  readonly #ctx: SessionScope;
  readonly #clientName: () => string | undefined;
  readonly #activated = new Set<string>();
  readonly #uses: ((entry: CatalogEntry) => number) | undefined;

  /** `uses`: how often each tool was called when the session began (ToolUse.snapshot), the most used kept listed past the limit. */
  constructor(ctx: SessionScope, clientName: () => string | undefined, uses?: UseCounts) {
    this.#ctx = ctx;
    this.#clientName = clientName;
    this.#uses = uses === undefined ? undefined : usesOfEntries(uses);
  }

  /** How the client is offered the tools (issue 30.3): by its name, its settings and `[hub]`. */
  surface(clientName = this.#clientName()): ClientSurface {
    return clientSurface(this.#ctx.settings().hub, clientName);
  }

  /**
   * The session's split of `entries` (its agent's catalog); nothing at all in read-only mode.
   * An activated tool `entries` no longer has leaves the session, whatever saw the catalog
   * without it first (a list, a search, a settings edit, a catalog change): back, it is
   * deferred again.
   */
  listing(entries: readonly CatalogEntry[], clientName = this.#clientName()): DeferredListing {
    if (this.#activated.size > 0) {
      const names = new Set(entries.map((e) => e.exposedName));
      for (const name of this.#activated) if (!names.has(name)) this.#activated.delete(name);
    }
    return surfaceListing(this.#ctx.readOnly ? [] : entries, this.surface(clientName), this.#activated, this.#uses);
  }

  /** What `tools/list` answers for `entries`: the hub's tools, then the listed ones. */
  tools(entries: readonly CatalogEntry[]): Tool[] {
    return this.toolsOf(this.listing(entries));
  }

  /** `tools` of a split already made (`listing`). */
  toolsOf(listing: DeferredListing): Tool[] {
    return listedTools(listing);
  }

  /**
   * `search_tools`: the best matches among what the session may call (its agent's catalog;
   * nothing in read-only mode), activated while the client's `max_tools` has room;
   * `activated` says whether its list grew.
   */
  search(catalog: Catalog<CatalogEntry>, args: Record<string, unknown>): { result: CallToolResult; activated: boolean } {
    const query = args.query;
    if (typeof query !== 'string' || query.trim() === '')
      return { result: toolError(`${SEARCH_TOOLS} needs a "query": the task in a few words, or part of a tool name`), activated: false };
    const limit = args.limit === undefined ? DEFAULT_SEARCH_LIMIT : args.limit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
      return { result: toolError(`${SEARCH_TOOLS}: "limit" must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`), activated: false };
    }
    const instructions = () =>
      new Map(
        this.#ctx.workspace.manager.routing
          .introduced(this.#ctx.agent)
          .flatMap((s) => (s.announced?.instructions ? [[s.name, s.announced.instructions] as const] : [])),
      );
    const matches = this.#ctx.readOnly ? [] : indexOf(catalog, instructions).search(query, { limit });
    const before = this.listing(catalog.list());
    const deferred = new Set(before.deferred.map((e) => e.exposedName));
    // A match kept listed by use is activated too, so a later activation does not push it out.
    const kept = new Set(before.kept.map((e) => e.exposedName));
    // Only as many as the client's limit has room for join its list; the rest stay callable through call_tool.
    let room = before.room;
    let grew = false;
    const tools = matches.map((m) => {
      const entry = catalog.byExposedName(m.exposedName)!;
      if ((deferred.has(m.exposedName) || kept.has(m.exposedName)) && room > 0) {
        this.#activated.add(m.exposedName);
        room--;
        grew ||= deferred.has(m.exposedName);
      }
      // A summary, not the whole schema (8 of them were ~16 KB): the exact name asked for gets its schema too.
      const summary = toolSummary(entry);
      return m.match === 'name' ? { ...summary, inputSchema: entry.tool.inputSchema } : summary;
    });
    const text = tools.length === 0 ? `No tool matches "${query}".` : tools.map(summaryText).join('\n');
    return { result: { content: [{ type: 'text', text }], structuredContent: { tools } }, activated: grew };
  }

  /**
   * What the session is told of its deferred tools (a `listing` made for its client), for its
   * instructions at initialize and a notice when deferral starts or stops: `defers` whether
   * the hub defers any of its tools; no `text` in read-only mode (nothing is listed or found).
   */
  told(listing: DeferredListing, clientName = this.#clientName()): { defers: boolean; text: string | undefined } {
    if (this.#ctx.readOnly) return { defers: false, text: undefined };
    return { defers: listing.defersAny, text: deferralText(listing, this.surface(clientName).deferred, listing.maxTools) };
  }
}

const tools = (n: number): string => `${n} tool${n === 1 ? '' : 's'}`;

/**
 * The paragraph about deferred tools, true of the session as it is: how many of its tools are
 * listed and how many deferred, why, and how to reach them.
 */
export function deferralText(
  listing: Pick<DeferredListing, 'listed' | 'deferred' | 'deferring'>,
  mode: DeferredMode,
  maxTools: number,
): string {
  const listed = listing.listed.length;
  const deferred = listing.deferred.length;
  if (deferred === 0) {
    const all =
      listed === 0
        ? 'these MCP servers offer no tools yet'
        : listed === 1
          ? 'the one tool of these MCP servers is in the tool list'
          : `all ${listed} tools of these MCP servers are in the tool list`;
    const past =
      mode === 'auto'
        ? ` Should they pass ${maxTools}, this client's limit, the hub defers the rest and offers ${SEARCH_TOOLS} to find them.`
        : '';
    return `Deferred tools: none now; ${all}.${past}`;
  }
  const why =
    mode === 'always'
      ? 'this hub defers every tool not marked direct'
      : listing.deferring
        ? `this hub lists at most ${maxTools} tools to this client, the most used first, then in server order`
        : "their servers' settings mark them deferred";
  return (
    `Deferred tools: ${listed} of the ${tools(listed + deferred)} of these MCP servers ${listed === 1 ? 'is' : 'are'} in the tool list; ` +
    `${deferred} more ${deferred === 1 ? 'is' : 'are'} deferred (${why}). ` +
    `Use ${SEARCH_TOOLS} to find them by task or name (the matches join the tool list), and ${CALL_TOOL} to call one if your tool list does not update.`
  );
}
