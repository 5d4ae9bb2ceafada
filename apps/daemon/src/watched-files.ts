import type { FileWatcher } from './watch/index.js';

/** The files the daemon follows (MCP-45): settings.toml, trust.json and the open workspaces' project files. */
export class WatchedFiles {
  readonly #watcher: FileWatcher;
  #watched = new Set<string>();

  constructor(watcher: FileWatcher) {
    this.#watcher = watcher;
  }

  /** Watches exactly these files: new ones start being watched, ones no longer wanted stop. */
  set(files: Iterable<string>): void {
    const wanted = new Set(files);
    for (const file of this.#watched) if (!wanted.has(file)) this.#watcher.unwatch(file);
    for (const file of wanted) if (!this.#watched.has(file)) this.#watcher.watch(file);
    this.#watched = wanted;
  }
}
