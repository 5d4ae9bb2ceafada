import type { CauseCode, Notice, NoticeKind } from '@blitz/client';
import { Listeners } from '../listeners.js';

/** What the daemon reports; the feed gives it an id and an ISO time. */
export interface NoticeInput {
  server: string;
  kind: NoticeKind;
  message: string;
  /** Epoch milliseconds, from the daemon's clock. */
  time: number;
  /** A failure's why and what to do (see `Notice`). */
  causeCode?: CauseCode | undefined;
  cause?: string | undefined;
  remedy?: string | undefined;
  /** The workspaces it happened in (roots); several copies of a server report the same event once each. */
  workspaces?: readonly string[] | undefined;
}

/** Failures: what a fix marks resolved. */
const FAILURES: ReadonlySet<NoticeKind> = new Set(['failed', 'paused']);

export type NoticeListener = (notice: Notice) => void;

export interface NoticeFeedOptions {
  /** How many notices are kept for pollers; older ones are dropped. */
  limit?: number;
  /**
   * Where a throwing listener's error goes. Without it the error is rethrown from `push`
   * once every listener has run, so a bug is never silent.
   */
  onError?: (error: unknown) => void;
}

const DEFAULT_LIMIT = 100;

/**
 * The daemon's notice feed (MCP-33, `GET /v1/status?after=N`): what the user should hear,
 * with ids that only grow so a poller (the tray) asks for those after the last it saw, and
 * live delivery for subscribers.
 */
export class NoticeFeed {
  readonly #limit: number;
  readonly #kept: Notice[] = [];
  readonly #listeners: Listeners<Notice>;
  #lastId = 0;

  constructor(options: NoticeFeedOptions = {}) {
    this.#limit = Math.max(1, options.limit ?? DEFAULT_LIMIT);
    this.#listeners = new Listeners('notice listeners', options.onError);
  }

  /** The highest id given so far (0 before the first), for the next `?after=`. */
  get lastId(): number {
    return this.#lastId;
  }

  /**
   * Adds a notice, or, when it is the same event another workspace's copy of the server
   * already reported (issue 29.3), names this workspace on that entry: one entry per event.
   * A merged entry keeps its id, so a poller that saw it is not told again. A recovery marks
   * the server's older failures resolved.
   */
  push(input: NoticeInput): Notice {
    // The time is converted first, so a bad one throws before an id is spent.
    const time = new Date(input.time).toISOString();
    const same = this.#sameEvent(input);
    if (same) return this.#name(same, input.workspaces ?? []);
    if (input.kind === 'recovered' && input.server !== '') this.resolve(input.server, input.time);
    const notice: Notice = Object.freeze({
      id: this.#lastId + 1,
      time,
      server: input.server,
      kind: input.kind,
      message: input.message,
      ...(input.causeCode === undefined ? {} : { causeCode: input.causeCode }),
      ...(input.cause === undefined ? {} : { cause: input.cause }),
      ...(input.remedy === undefined ? {} : { remedy: input.remedy }),
      ...(input.workspaces && input.workspaces.length > 0 ? { workspaces: [...new Set(input.workspaces)] } : {}),
    });
    this.#lastId = notice.id;
    this.#kept.push(notice);
    if (this.#kept.length > this.#limit) this.#kept.splice(0, this.#kept.length - this.#limit);
    this.#listeners.emit(notice);
    return notice;
  }

  /**
   * The server works again (it recovered, connected after an edit, was switched off): its
   * failures not yet resolved are marked so, with the time. Returns how many were.
   */
  resolve(server: string, time: number): number {
    const resolved = new Date(time).toISOString();
    let count = 0;
    for (const [i, notice] of this.#kept.entries()) {
      if (notice.server !== server || !FAILURES.has(notice.kind) || notice.resolved !== undefined) continue;
      this.#kept[i] = Object.freeze({ ...notice, resolved });
      count++;
    }
    return count;
  }

  /**
   * The kept entry this notice repeats from another workspace: a failure of the same kind
   * and cause not yet resolved, or a recovery with nothing of the server's after it.
   */
  #sameEvent(input: NoticeInput): Notice | undefined {
    if (input.server === '' || !input.workspaces || input.workspaces.length === 0) return undefined;
    for (let i = this.#kept.length - 1; i >= 0; i--) {
      const notice = this.#kept[i]!;
      if (notice.server !== input.server) continue;
      if (input.kind === 'recovered') return notice.kind === 'recovered' ? notice : undefined;
      if (
        notice.kind === input.kind &&
        notice.resolved === undefined &&
        (notice.cause ?? notice.message) === (input.cause ?? input.message)
      )
        return notice;
    }
    return undefined;
  }

  /** The entry, naming these workspaces too. */
  #name(notice: Notice, workspaces: readonly string[]): Notice {
    const named = [...new Set([...(notice.workspaces ?? []), ...workspaces])];
    if (named.length === (notice.workspaces ?? []).length) return notice;
    const updated: Notice = Object.freeze({ ...notice, workspaces: named });
    this.#kept[this.#kept.indexOf(notice)] = updated;
    return updated;
  }

  /**
   * Kept notices with an id above `n`, oldest first; all kept ones when `n` is absent.
   * A cursor above `lastId` was handed out by an earlier daemon run (ids restart at 1), so
   * it gets every kept notice too rather than nothing until the new ids catch up.
   */
  after(n?: number): Notice[] {
    if (n === undefined || n > this.#lastId) return [...this.#kept];
    return this.#kept.filter((notice) => notice.id > n);
  }

  /** Calls `listener` with every notice pushed from now on; returns the unsubscribe. */
  subscribe(listener: NoticeListener): () => void {
    return this.#listeners.add(listener);
  }
}
