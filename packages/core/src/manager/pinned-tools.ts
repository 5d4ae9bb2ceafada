import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PinReviewMode } from '../config/settings.js';
import type { ServerConnection } from '../connection/server-connection.js';
import { pinKey } from '../pins/pin-key.js';
import type { ListingVerdict, PinKey, PinStore, ReviewChange, ToolReview } from '../pins/pin-store.js';
import { BlitzError } from '../errors/blitz-error.js';
import type { ResolvedTool } from './offered-server.js';

/** What the catalog is given of one listing: the tools offered, and those held for review. */
interface Checked {
  generation: number;
  verdict: ListingVerdict;
  offered: Tool[];
}

const NONE: ReadonlyMap<string, ReviewChange> = new Map();

/**
 * One workspace's use of the pin store (issue 31): each listing of a server is checked once
 * against its pins (the first pins it), and the tools held for review are taken out of what
 * is offered (`[hub] pin_review = "hide"`) or offered with every call asked (`"ask"`). A
 * server with `pin = false` is never checked. The tools a listing put in review first are
 * told through `onReview`, after the catalog is built (a notice names each once).
 */
export class PinnedTools {
  readonly #store: () => PinStore | undefined;
  readonly #mode: () => PinReviewMode;
  readonly #workspace: string;
  readonly #onReview: (connection: ServerConnection, tools: readonly string[]) => void;
  readonly #checked = new WeakMap<readonly Tool[], Checked>();
  readonly #keys = new WeakMap<ServerConnection, PinKey>();
  /** The last verdict of each connection's listing: what its status and calls go by. */
  readonly #last = new WeakMap<ServerConnection, ListingVerdict>();

  constructor(opts: {
    store: () => PinStore | undefined;
    mode: () => PinReviewMode;
    workspace: string;
    onReview(connection: ServerConnection, tools: readonly string[]): void;
  }) {
    this.#store = opts.store;
    this.#mode = opts.mode;
    this.#workspace = opts.workspace;
    this.#onReview = opts.onReview;
  }

  /** Whether this server's listings are checked: a pin store is in use and the server does not say `pin = false`. */
  watches(connection: ServerConnection): boolean {
    return this.#store() !== undefined && connection.config.pin !== false;
  }

  /** The tools of this listing a client is offered: the same array when none is held, so a catalog built from it is kept. */
  offered(connection: ServerConnection, tools: Tool[]): Tool[] {
    const store = this.#store();
    if (!store || connection.config.pin === false || tools.length === 0) return tools;
    const known = this.#checked.get(tools);
    const checked = known && known.generation === store.generation ? known : this.#check(store, connection, tools);
    this.#last.set(connection, checked.verdict);
    return this.#mode() === 'ask' ? tools : checked.offered;
  }

  /** The tools of this server in review as last listed, by name. */
  held(connection: ServerConnection): ReadonlyMap<string, ReviewChange> {
    if (!this.#store() || connection.config.pin === false) return NONE;
    return this.#last.get(connection)?.held ?? NONE;
  }

  /** Whether a call of this tool must be asked whatever the rules say: it is in review and offered (`pin_review = "ask"`). */
  mustAsk(connection: ServerConnection, tool: string): boolean {
    return this.#mode() === 'ask' && this.held(connection).has(tool);
  }

  /**
   * A resolved tool checked against its server's pins (issue 31) before it is approved and
   * called: a server listed from the catalog cache, or not started yet, is started first (as
   * its call would), so the definition checked is the one it lists now. Held for review, the
   * tool is refused (`[hub] pin_review = "hide"`) or marked to be asked (`"ask"`).
   */
  async admit(tool: ResolvedTool): Promise<ResolvedTool> {
    const { connection, entry } = tool;
    if (!this.watches(connection)) return tool;
    const tools = connection.ready ? connection.currentTools() : await connection.tools();
    this.offered(connection, tools);
    const change = this.held(connection).get(entry.originalName);
    if (change === undefined) return tool;
    if (this.mustAsk(connection, entry.originalName)) return { ...tool, inReview: true };
    throw reviewRefusal(entry.exposedName, entry.server, change);
  }

  /** The tools of this server in review, each with its changes field by field (`blitz mcp review`). */
  reviews(connection: ServerConnection): ToolReview[] {
    return this.#store()?.reviews(this.key(connection).id) ?? [];
  }

  /** Pins the definitions of this server's tools in review (these only, when named); returns the tools pinned. */
  accept(connection: ServerConnection, tools?: readonly string[]): string[] {
    return this.#store()?.accept(this.key(connection).id, tools) ?? [];
  }

  /** What the user hears (MCP-33) when a listing put these tools in review first. */
  reviewMessage(connection: ServerConnection, tools: readonly string[]): string {
    const held = this.held(connection);
    const items = tools.map((t) => `"${t}" (${held.get(t) === 'new' ? 'new' : 'changed'})`).join(', ');
    return `MCP server ${connection.name}: ${tools.length === 1 ? 'tool' : 'tools'} ${items} held for review: not what was pinned when the server was first trusted; see blitz mcp review ${connection.name}`;
  }

  key(connection: ServerConnection): PinKey {
    let key = this.#keys.get(connection);
    if (!key) {
      key = pinKey(connection.config, this.#workspace);
      this.#keys.set(connection, key);
    }
    return key;
  }

  #check(store: PinStore, connection: ServerConnection, tools: Tool[]): Checked {
    const verdict = store.listed(this.key(connection), tools);
    const offered = verdict.held.size === 0 ? tools : tools.filter((t) => !verdict.held.has(t.name));
    const checked = { generation: store.generation, verdict, offered };
    this.#checked.set(tools, checked);
    if (verdict.fresh.length > 0) queueMicrotask(() => this.#onReview(connection, verdict.fresh));
    return checked;
  }
}

/** A call of a tool held for review (issue 31): refused, saying why and how to accept it. */
export function reviewRefusal(exposedName: string, server: string, change: ReviewChange): BlitzError {
  const what = change === 'new' ? 'is new in MCP server' : 'changed its definition in MCP server';
  return new BlitzError(
    'FAILED_PRECONDITION',
    `${exposedName} ${what} "${server}" since its tools were pinned, and is held for review: see blitz mcp review ${server}, then accept it with blitz mcp review ${server} --accept`,
    { reason: 'TOOL_IN_REVIEW' },
  );
}
