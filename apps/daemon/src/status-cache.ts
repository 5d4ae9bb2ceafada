import type { StatusResponse } from '@blitz/client';

/** Different `after` cursors kept at once: one per polling tray or client, a few at most. */
const MAX_CURSORS = 16;

/**
 * The `GET /v1/status` answers built since the last change, by notice cursor: the tray polls
 * every 2 s and, between the events that change the status, gets the answer built before.
 * The daemon drops them all on every manager, shared-server, notice, workspace and settings
 * event, so the next GET builds afresh.
 */
export class StatusCache {
  readonly #bodies = new Map<number | undefined, StatusResponse>();

  get(after: number | undefined, build: () => StatusResponse): StatusResponse {
    const cached = this.#bodies.get(after);
    if (cached) return cached;
    const body = build();
    if (this.#bodies.size >= MAX_CURSORS) this.#bodies.clear();
    this.#bodies.set(after, body);
    return body;
  }

  invalidate(): void {
    this.#bodies.clear();
  }
}
