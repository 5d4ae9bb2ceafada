import path from 'node:path';
import { BlitzError } from '@blitz/core';
import { systemClock, type Clock, type Timer } from '@blitz/clock';
import { Listeners } from '../listeners.js';
import { DirectoryWatch } from './directory-watch.js';
import { snapshot, statKey, textKey } from './file-snapshot.js';

export type ChangeListener = (file: string) => void;

export interface FileWatcherOptions {
  clock?: Clock;
  /** Quiet time after the last sign of a change before the file is read (editors write in bursts). */
  debounceMs?: number;
  /** Stat comparison interval, for filesystems where `fs.watch` misses events (network, some VMs). */
  pollMs?: number;
  /** `false` to rely on polling alone. */
  fsWatch?: boolean;
  /**
   * Where a listener's error and `fs.watch` trouble go. Without it a listener's error is
   * rethrown (a bug stays loud) and `fs.watch` trouble is dropped: polling still covers the file.
   */
  onError?: (error: unknown) => void;
}

export const DEFAULT_DEBOUNCE_MS = 150;
export const DEFAULT_POLL_MS = 2000;

interface Watched {
  readonly file: string;
  /** From the last check; the poll compares against it. */
  stat: string;
  /** From the last check; a change is a different value here, nothing else. */
  content: string;
  target: string | undefined;
  timer: Timer | undefined;
}

interface WatchedDirectory {
  /** Absent when polling alone. */
  watch: DirectoryWatch | undefined;
  /** Entry name → the watched files it concerns (a file itself, or a symlink's target). */
  names: Map<string, Set<Watched>>;
}

/**
 * Tells when watched files (settings.toml, a project's `.mcp.json`, …) really change.
 * Every sign of a change — an `fs.watch` event on the file's folder or on a symlink
 * target's folder, or a poll that finds a different stat — restarts that file's debounce
 * timer; when it fires the file is read, and listeners hear of it only if the bytes differ
 * (created and deleted count as changes). Paths are reported absolute.
 */
export class FileWatcher {
  readonly #clock: Clock;
  readonly #debounceMs: number;
  readonly #pollMs: number;
  readonly #fsWatch: boolean;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #files = new Map<string, Watched>();
  readonly #dirs = new Map<string, WatchedDirectory>();
  readonly #listeners: Listeners<string>;
  #poll: Timer | undefined;
  #closed = false;

  constructor(options: FileWatcherOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.#pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.#fsWatch = options.fsWatch ?? true;
    this.#onError = options.onError;
    this.#listeners = new Listeners('file change listeners', options.onError);
  }

  /** Starts watching `file`, which may not exist yet, nor its folder. Watching twice is a no-op. */
  watch(file: string): void {
    if (this.#closed) throw new BlitzError('FAILED_PRECONDITION', 'the file watcher is closed');
    const absolute = path.resolve(file);
    if (this.#files.has(absolute)) return;
    const now = snapshot(absolute);
    const watched: Watched = { file: absolute, stat: now.stat, content: now.content, target: now.target, timer: undefined };
    this.#files.set(absolute, watched);
    this.#subscribe(absolute, watched);
    if (watched.target) this.#subscribe(watched.target, watched);
    this.#startPolling();
  }

  unwatch(file: string): void {
    const watched = this.#files.get(path.resolve(file));
    if (!watched) return;
    watched.timer?.cancel();
    this.#files.delete(watched.file);
    this.#unsubscribe(watched.file, watched);
    if (watched.target) this.#unsubscribe(watched.target, watched);
    if (this.#files.size === 0) this.#stopPolling();
  }

  /**
   * This process is about to write `text` to `file`: a check that finds these bytes hears no
   * change, so only an edit made by others is told (issue 27.5). Told before the write, no check
   * can come between; a write that then fails leaves bytes that differ, and the next check tells them.
   */
  expect(file: string, text: string): void {
    const watched = this.#files.get(path.resolve(file));
    if (watched) watched.content = textKey(text);
  }

  /** Calls `listener` with the absolute path of each file whose content changed; returns the unsubscribe. */
  onChange(listener: ChangeListener): () => void {
    return this.#listeners.add(listener);
  }

  /** Stops every watcher and timer; nothing is heard afterwards and the process may exit. */
  close(): void {
    this.#closed = true;
    this.#stopPolling();
    for (const watched of this.#files.values()) watched.timer?.cancel();
    for (const dir of this.#dirs.values()) dir.watch?.close();
    this.#files.clear();
    this.#dirs.clear();
    this.#listeners.clear();
  }

  #subscribe(file: string, watched: Watched): void {
    const dir = path.dirname(file);
    let entry = this.#dirs.get(dir);
    if (!entry) {
      const onError = (error: unknown) => this.#onError?.(error);
      const watch = this.#fsWatch ? new DirectoryWatch(dir, (name) => this.#entryChanged(dir, name), onError) : undefined;
      entry = { watch, names: new Map() };
      this.#dirs.set(dir, entry);
    }
    const name = path.basename(file);
    const files = entry.names.get(name) ?? new Set();
    entry.names.set(name, files.add(watched));
  }

  #unsubscribe(file: string, watched: Watched): void {
    const dir = path.dirname(file);
    const entry = this.#dirs.get(dir);
    const name = path.basename(file);
    const files = entry?.names.get(name);
    if (!entry || !files) return;
    files.delete(watched);
    if (files.size === 0) entry.names.delete(name);
    if (entry.names.size > 0) return;
    entry.watch?.close();
    this.#dirs.delete(dir);
  }

  #entryChanged(dir: string, name: string | undefined): void {
    const entry = this.#dirs.get(dir);
    if (!entry) return;
    const concerned = name === undefined ? [...entry.names.values()] : [entry.names.get(name) ?? new Set<Watched>()];
    for (const files of concerned) for (const watched of files) this.#schedule(watched);
  }

  /** Each sign of a change pushes the check back, so a burst of writes is read once, after it. */
  #schedule(watched: Watched): void {
    if (this.#closed) return;
    watched.timer?.cancel();
    watched.timer = this.#clock.setTimeout(() => {
      watched.timer = undefined;
      this.#check(watched);
    }, this.#debounceMs);
  }

  #check(watched: Watched): void {
    if (this.#files.get(watched.file) !== watched) return;
    const now = snapshot(watched.file);
    if (now.target !== watched.target) {
      // A re-pointed (or new, or removed) symlink: follow the target's folder from now on.
      if (watched.target) this.#unsubscribe(watched.target, watched);
      if (now.target) this.#subscribe(now.target, watched);
      watched.target = now.target;
    }
    const changed = now.content !== watched.content;
    watched.stat = now.stat;
    watched.content = now.content;
    if (changed) this.#listeners.emit(watched.file);
  }

  #startPolling(): void {
    if (this.#poll || this.#closed || this.#files.size === 0) return;
    this.#poll = this.#clock.setTimeout(() => {
      this.#poll = undefined;
      this.#pollOnce();
      this.#startPolling();
    }, this.#pollMs);
  }

  #stopPolling(): void {
    this.#poll?.cancel();
    this.#poll = undefined;
  }

  /** A stat per file and per folder: cheap enough every few seconds for a few dozen files. */
  #pollOnce(): void {
    for (const dir of this.#dirs.values()) dir.watch?.refresh();
    for (const watched of this.#files.values()) {
      // A file with a check pending will be read anyway.
      if (!watched.timer && statKey(watched.file) !== watched.stat) this.#schedule(watched);
    }
  }
}
