import fs from 'node:fs';
import path from 'node:path';

export interface LogFileOptions {
  path: string;
  /** The file is rotated before a line would take it past this size. */
  maxBytes?: number;
  /** How many rotated files (`.1` newest … `.N` oldest) are kept. */
  keep?: number;
}

export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_KEEP = 3;

/**
 * An append-only log file, 0600 in a 0700 folder, rotated by size through renames.
 *
 * Appends are synchronous: the daemon logs a few lines per event, a synchronous write keeps
 * lines in order across every caller without a queue, and the last lines before a crash or
 * `process.exit` are on disk rather than in a buffer that never flushed.
 */
export class LogFile {
  readonly path: string;
  readonly #maxBytes: number;
  readonly #keep: number;
  #fd: number | undefined;
  /** Tracked rather than stat'ed on each write; read from the file when it is opened. */
  #size = 0;

  constructor(options: LogFileOptions) {
    this.path = options.path;
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.#keep = Math.max(0, options.keep ?? DEFAULT_KEEP);
  }

  /** Appends `text` (whole lines); throws when the file cannot be written. */
  append(text: string): void {
    const bytes = Buffer.from(text);
    let fd = this.#open();
    // A line longer than the limit still gets written, alone in a fresh file.
    if (this.#size > 0 && this.#size + bytes.length > this.#maxBytes) {
      this.#rotate();
      fd = this.#open();
    }
    for (let offset = 0; offset < bytes.length;) offset += fs.writeSync(fd, bytes, offset);
    this.#size += bytes.length;
  }

  /** Releases the file; a later `append` opens it again. */
  close(): void {
    if (this.#fd === undefined) return;
    fs.closeSync(this.#fd);
    this.#fd = undefined;
  }

  #open(): number {
    if (this.#fd !== undefined) return this.#fd;
    const dir = path.dirname(this.path);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode covers only folders it creates; one made earlier by hand may be wider.
    fs.chmodSync(dir, 0o700);
    const fd = fs.openSync(this.path, 'a', 0o600);
    try {
      // Likewise the open mode applies only on creation.
      fs.fchmodSync(fd, 0o600);
      this.#size = fs.fstatSync(fd).size;
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    this.#fd = fd;
    return fd;
  }

  /** `blitz.log.2` → `.3`, `.1` → `.2`, `blitz.log` → `.1`; the oldest is replaced. */
  #rotate(): void {
    this.close();
    if (this.#keep === 0) {
      fs.rmSync(this.path, { force: true });
      return;
    }
    for (let n = this.#keep - 1; n >= 1; n--) renameIfExists(`${this.path}.${n}`, `${this.path}.${n + 1}`);
    fs.renameSync(this.path, `${this.path}.1`);
  }
}

function renameIfExists(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
