import type { ConnectionEvent, ManagerEvent, Redactor } from '@blitz/core';
import type { StatusResponse } from '@blitz/client';
import { JsonBytes } from './http/json-bytes.js';

/** Different `after` cursors kept at once: one per polling tray or client, a few at most. */
const MAX_CURSORS = 16;

/**
 * Whether an event of a workspace's servers (or of a shared server) changes what
 * `GET /v1/status` says: a server's state (with its pid, error, retry time) or a new notice.
 * The rest (catalogs, log messages, list and resource changes, a failure, which comes with
 * its status) does not, so a busy server's log never costs the tray's poll a rebuild.
 */
export function changesStatus(event: ManagerEvent | ConnectionEvent): boolean {
  switch (event.type) {
    case 'status':
    case 'notice':
      return true;
    case 'catalog':
    case 'failure':
    case 'listChanged':
    case 'log':
    case 'resourceUpdated':
    case 'subscriptionsEnded':
      return false;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/**
 * The `GET /v1/status` answers, by notice cursor, as masked bytes: the tray polls every 2 s
 * and, between the changes of what the status is made of, gets the bytes built before. What
 * it is made of (settings, open workspaces, their servers' states, notices) changes only
 * through `changed` and the events `heard` lets pass; a secret new to the redactor drops
 * them too, as they were masked without it.
 */
export class StatusCache {
  readonly #bodies = new Map<number | undefined, JsonBytes>();
  readonly #build: (after: number | undefined) => StatusResponse;
  readonly #redactor: Redactor;
  #maskedAt: number;
  #builds = 0;

  constructor(build: (after: number | undefined) => StatusResponse, redactor: Redactor) {
    this.#build = build;
    this.#redactor = redactor;
    this.#maskedAt = redactor.version;
  }

  /** The answer for a cursor: the bytes built since the last change, or built now. */
  get(after: number | undefined): JsonBytes {
    if (this.#redactor.version !== this.#maskedAt) this.changed();
    const cached = this.#bodies.get(after);
    if (cached) return cached;
    const body = JsonBytes.of(this.#redactor.redactValue(this.#build(after)));
    this.#builds++;
    if (this.#bodies.size >= MAX_CURSORS) this.#bodies.clear();
    this.#bodies.set(after, body);
    return body;
  }

  /** A server event: the answers go only when it changes the status (`changesStatus`). */
  heard(event: ManagerEvent | ConnectionEvent): void {
    if (changesStatus(event)) this.changed();
  }

  /** The settings or the open workspaces changed: the next GET builds afresh. */
  changed(): void {
    this.#bodies.clear();
    this.#maskedAt = this.#redactor.version;
  }

  /** How many answers were built: tests count rebuilds with it. */
  get builds(): number {
    return this.#builds;
  }
}
