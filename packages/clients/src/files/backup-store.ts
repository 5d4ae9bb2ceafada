import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeTextAtomic } from '@blitz/core';
import type { ClientId } from '../client-spec.js';
import type { SavedServer } from './client-document.js';

/** What `connect` did to one client's file, so `disconnect` can undo exactly that. */
export interface ConnectionRecord {
  readonly client: ClientId;
  readonly file: string;
  readonly connectedAt: string;
  /** The copy of the file as connect found it; null when there was no file. */
  readonly backup: string | null;
  /** The text connect left in the file. */
  readonly after: string;
  /** Servers connect removed, as they were written. */
  readonly removed: readonly { readonly name: string; readonly saved: SavedServer }[];
  /** An entry named `blitz` that connect replaced, if there was one. */
  readonly previousBlitz: SavedServer | null;
}

/**
 * `BLITZ_HOME/state/client-backups/`: the original of each file before Blitz first changed
 * it (`<client>-<time>-<file name>`, 0600 — it may hold secrets) and one record a connected file.
 */
export class BackupStore {
  readonly dir: string;
  readonly #now: () => Date;

  constructor(dir: string, now: () => Date = () => new Date()) {
    this.dir = dir;
    this.#now = now;
  }

  /** Keeps the original text; returns where. */
  async keepOriginal(client: ClientId, file: string, original: string): Promise<string> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const stamp = this.#now().toISOString().replace(/[:.]/g, '-');
    const copy = path.join(this.dir, `${client}-${stamp}-${path.basename(file)}`);
    await writeTextAtomic(copy, original);
    return copy;
  }

  now(): string {
    return this.#now().toISOString();
  }

  async load(client: ClientId, file: string): Promise<ConnectionRecord | undefined> {
    try {
      return JSON.parse(await readFile(this.#recordPath(client, file), 'utf8')) as ConnectionRecord;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async save(record: ConnectionRecord): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeTextAtomic(this.#recordPath(record.client, record.file), `${JSON.stringify(record, null, 2)}\n`);
  }

  async drop(client: ClientId, file: string): Promise<void> {
    await rm(this.#recordPath(client, file), { force: true });
  }

  async readBackup(record: ConnectionRecord): Promise<string | undefined> {
    return record.backup === null ? undefined : readFile(record.backup, 'utf8');
  }

  #recordPath(client: ClientId, file: string): string {
    const key = createHash('sha256').update(path.resolve(file)).digest('hex').slice(0, 12);
    return path.join(this.dir, `${client}-${key}.connected.json`);
  }
}
