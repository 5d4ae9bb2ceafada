import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PinReviewMode } from '../config/settings.js';
import type { ServerConnection } from '../connection/server-connection.js';
import { pinKey } from '../pins/pin-key.js';
import type { ListingVerdict, PinKey, PinStore, ReviewChange } from '../pins/pin-store.js';

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
