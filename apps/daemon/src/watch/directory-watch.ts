import fs from 'node:fs';
import path from 'node:path';

/** An entry of the folder that may have changed; `undefined` when any of them may have. */
export type EntryListener = (name: string | undefined) => void;

/**
 * One non-recursive `fs.watch` for one folder, kept working as the folder comes and goes.
 * Watching the folder rather than the file survives editors that save by rename, and files
 * that do not exist yet. While the folder itself is missing, the nearest existing ancestor
 * is watched for the next path component, so `mkdir -p .agents` is seen at once.
 */
export class DirectoryWatch {
  readonly dir: string;
  readonly #onEntry: EntryListener;
  readonly #onError: (error: unknown) => void;
  #watcher: fs.FSWatcher | undefined;
  /** The folder the watcher is on (`dir` or an ancestor) and its inode, to notice a replacement. */
  #at: { path: string; ino: number } | undefined;
  /** Trouble is told once per outage, not on every retry. */
  #reported = false;
  #closed = false;

  constructor(dir: string, onEntry: EntryListener, onError: (error: unknown) => void) {
    this.dir = path.resolve(dir);
    this.#onEntry = onEntry;
    this.#onError = onError;
    this.#attach(false);
  }

  /**
   * Moves the watcher if the folder appeared, disappeared or was replaced, and retries after
   * a failure; the owner calls it on every poll, as `fs.watch` is not told of every such move.
   */
  refresh(): void {
    this.#attach(true);
  }

  close(): void {
    this.#closed = true;
    this.#detach();
  }

  #attach(announce: boolean): void {
    if (this.#closed) return;
    const at = nearestDirectory(this.dir);
    if (this.#watcher && at && at.path === this.#at?.path && at.ino === this.#at.ino) return;
    this.#detach();
    if (!at) return;
    try {
      const watcher = fs.watch(at.path, { persistent: true }, (event, name) => this.#event(watcher, at.path, event, name));
      watcher.on('error', (error) => this.#failed(watcher, error));
      this.#watcher = watcher;
      this.#at = at;
      this.#reported = false;
    } catch (error) {
      // The folder may have gone between the stat and the watch: no trouble, the next poll
      // retries. Anything else (the inotify limit, EPERM) is worth telling once.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#report(error);
      return;
    }
    // What happened while nobody watched this spot is unknown: every entry may have changed.
    // (Without a watcher the owner's poll compares stats, so there is nothing to announce.)
    if (announce) this.#onEntry(undefined);
    // A deeper folder may have appeared before the watcher started; go down to it now.
    if (at.path !== this.dir) this.#attach(announce);
  }

  #event(watcher: fs.FSWatcher, watched: string, event: string, name: string | null): void {
    if (watcher !== this.#watcher) return;
    if (watched !== this.dir) {
      // Only the next component of the path matters to an ancestor's watcher.
      const next = path.relative(watched, this.dir).split(path.sep)[0];
      if (name === null || name === next) this.refresh();
      return;
    }
    this.#onEntry(name ?? undefined);
    // A rename may be the folder itself going away, after which this watcher hears nothing.
    if (event === 'rename') this.refresh();
  }

  #failed(watcher: fs.FSWatcher, error: unknown): void {
    if (watcher !== this.#watcher) return;
    this.#detach();
    this.#report(error);
  }

  #detach(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#at = undefined;
  }

  #report(error: unknown): void {
    if (this.#reported) return;
    this.#reported = true;
    this.#onError(error);
  }
}

function nearestDirectory(dir: string): { path: string; ino: number } | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    try {
      const stat = fs.statSync(current, { throwIfNoEntry: false });
      if (stat?.isDirectory()) return { path: current, ino: stat.ino };
    } catch {
      // Not a folder (ENOTDIR) or not ours to read: try further up.
    }
    if (path.dirname(current) === current) return undefined;
  }
}
