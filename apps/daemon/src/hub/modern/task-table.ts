import { randomUUID } from 'node:crypto';
import type { Clock } from '@blitz/clock';
import type { TaskCreated } from '@blitz/core';

/** Whose a task is: the hub hands it only to requests of the same workspace and agent. */
export interface TaskOwner {
  root: string;
  agent: string;
}

/** The server a task is of, and its id there. */
export interface ServerTask {
  server: string;
  taskId: string;
}

interface Entry extends TaskOwner, ServerTask {
  /** When the hub learnt of it, which its TTL counts from. */
  createdAt: number;
  expiresAt: number;
}

/** The most tasks the hub remembers; past it the oldest is forgotten (one of unlimited TTL is never forgotten otherwise). */
export const MAX_TASKS = 1000;

/**
 * The tasks servers made of 2026-07-28 clients' calls (the tasks extension), each under an id
 * of the hub's own: two servers may give the same id, and a client must not reach a task of
 * another workspace or agent by naming its id. One is kept for the TTL its server gives it
 * (which may change on each `tasks/get`), and forgotten after.
 */
export class TaskTable {
  readonly #clock: Clock;
  readonly #max: number;
  readonly #byId = new Map<string, Entry>();

  constructor(clock: Clock, max = MAX_TASKS) {
    this.#clock = clock;
    this.#max = max;
  }

  /** Keeps a server's new task; gives the id its client is to follow it by. */
  add(owner: TaskOwner, server: string, task: TaskCreated): string {
    const now = this.#clock.now();
    for (const [id, entry] of this.#byId) if (entry.expiresAt <= now) this.#byId.delete(id);
    const id = randomUUID();
    this.#byId.set(id, { ...owner, server, taskId: task.taskId, createdAt: now, expiresAt: expiry(now, task.ttlMs) });
    // Oldest first: a Map keeps its insertion order.
    for (const old of this.#byId.keys()) {
      if (this.#byId.size <= this.#max) break;
      this.#byId.delete(old);
    }
    return id;
  }

  /** The task the hub's id names, if it is this owner's and not past its TTL. */
  find(id: string, owner: TaskOwner): ServerTask | undefined {
    const entry = this.#byId.get(id);
    if (!entry || entry.root !== owner.root || entry.agent !== owner.agent) return undefined;
    if (entry.expiresAt > this.#clock.now()) return entry;
    this.#byId.delete(id);
    return undefined;
  }

  /** The TTL its server gives the task now. */
  renew(id: string, ttlMs: unknown): void {
    const entry = this.#byId.get(id);
    if (entry) entry.expiresAt = expiry(entry.createdAt, ttlMs);
  }
}

/** A TTL in ms from `from`; `null` (or none) is unlimited. */
function expiry(from: number, ttlMs: unknown): number {
  return typeof ttlMs === 'number' && ttlMs >= 0 ? from + ttlMs : Number.POSITIVE_INFINITY;
}
