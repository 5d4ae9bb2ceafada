import crypto from 'node:crypto';
import type { Manager } from '@blitz/core';
import type { Clock, Timer } from '@blitz/clock';

/** A stable, URL-safe id for a workspace root. */
export function workspaceId(root: string): string {
  return crypto.createHash('sha256').update(root).digest('hex').slice(0, 12);
}

/**
 * A project directory the daemon hosts: its own manager (global servers plus the project's
 * trusted ones) and the clients connected to it. With no client left it waits out the idle
 * grace period, then closes (MCP-12).
 */
export class Workspace {
  readonly id: string;
  readonly root: string;
  readonly manager: Manager;
  trusted = false;
  /** The project's problems, formatted: files not read, entries skipped (they never block the workspace). */
  problems: readonly string[] = [];
  #clients = 0;
  #idleTimer: Timer | undefined;

  constructor(root: string, manager: Manager) {
    this.id = workspaceId(root);
    this.root = root;
    this.manager = manager;
  }

  get clients(): number {
    return this.#clients;
  }

  /** A client arrived: the workspace stays open while any is connected. */
  attach(): void {
    this.#clients++;
    this.#idleTimer?.cancel();
    this.#idleTimer = undefined;
  }

  /** A client left; with none left, `onIdle` runs after `idleMs` unless one comes back. */
  detach(clock: Clock, idleMs: number, onIdle: () => void): void {
    this.#clients = Math.max(0, this.#clients - 1);
    if (this.#clients === 0) this.startIdle(clock, idleMs, onIdle);
  }

  startIdle(clock: Clock, idleMs: number, onIdle: () => void): void {
    this.#idleTimer?.cancel();
    this.#idleTimer = clock.setTimeout(onIdle, idleMs);
  }

  async close(): Promise<void> {
    this.#idleTimer?.cancel();
    await this.manager.close();
  }
}
