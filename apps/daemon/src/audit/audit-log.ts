import type { Redactor } from '@blitz/core';
import { LogFile } from '../log/index.js';
import type { AuditEntry } from '@blitz/client';
import { RecentCalls } from './recent-calls.js';

export interface AuditLogOptions {
  /** `logs/audit.jsonl`. */
  file: string;
  /** Rotated past this size (`[hub] audit_max_mb`), as the daemon log is: `.1` newest … `.3` oldest. */
  maxBytes: () => number;
  /** The arguments' values are kept (`[hub] audit_arguments`), redacted. */
  keepArguments: () => boolean;
  redactor: Redactor;
  /** The log could not be written (a full disk): said once, loudly; the calls go on. */
  onStopped(message: string): void;
}

/**
 * The audit log (issue 31): one JSON line for every tool call, resource read and prompt get
 * through the hub, appended synchronously (in order, on disk before a crash) to a 0600 file
 * rotated by size. A write that fails stops the log — one notice, never a failed call — until
 * the daemon starts again.
 */
export class AuditLog {
  readonly #opts: AuditLogOptions;
  #file: LogFile;
  #maxBytes: number;
  #stopped: string | undefined;
  /** The latest calls per server, for the settings page (issue 31). */
  readonly recent: RecentCalls;

  constructor(opts: AuditLogOptions) {
    this.#opts = opts;
    this.recent = new RecentCalls(opts.file);
    this.#maxBytes = opts.maxBytes();
    this.#file = new LogFile({ path: opts.file, maxBytes: this.#maxBytes });
  }

  get file(): string {
    return this.#opts.file;
  }

  /** Why the log stopped, once it did. */
  get stopped(): string | undefined {
    return this.#stopped;
  }

  write(entry: AuditEntry): void {
    // Kept for the page even when the file is stopped: the calls still happened.
    this.recent.add(entry);
    if (this.#stopped !== undefined) return;
    if (entry.args !== undefined)
      entry = this.#opts.keepArguments() ? { ...entry, args: this.#opts.redactor.redactValue(entry.args) } : withoutArgs(entry);
    const maxBytes = this.#opts.maxBytes();
    if (maxBytes !== this.#maxBytes) {
      // A settings edit of audit_max_mb: the next line goes by the new size.
      this.#file.close();
      this.#maxBytes = maxBytes;
      this.#file = new LogFile({ path: this.#opts.file, maxBytes });
    }
    try {
      this.#file.append(`${JSON.stringify(entry)}\n`);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      this.#stopped = `the audit log ${this.#opts.file} could not be written (${code ?? (err as Error).message}) and is stopped: calls go on, unrecorded, until the daemon is restarted${code === 'ENOSPC' ? ' with room on the disk' : ''}`;
      try {
        this.#file.close();
      } catch {
        // Closing a file that could not be written may fail too; it is stopped either way.
      }
      this.#opts.onStopped(this.#stopped);
    }
  }

  close(): void {
    this.#file.close();
  }
}

function withoutArgs(entry: AuditEntry): AuditEntry {
  const { args: _args, ...rest } = entry;
  return rest as AuditEntry;
}
