import fs from 'node:fs';
import type { AuditEntry } from '@blitz/client';

/** How many calls are kept per server: the page shows the latest of them. */
export const RECENT_CALLS = 50;
/** How much of the end of `audit.jsonl` is read to know the calls before this daemon started. */
const TAIL_BYTES = 512 * 1024;

/**
 * The latest audited calls per server (issue 31), for the settings page: those at the end of
 * the audit log when the daemon started, then each one it writes (a line that is not an entry
 * is left out here; `blitz log calls` reports it with its line).
 */
export class RecentCalls {
  readonly #keep: number;
  readonly #byServer = new Map<string, AuditEntry[]>();

  /** Reads the end of the audit log as it is now: the calls before this daemon started. */
  constructor(file: string, keep = RECENT_CALLS) {
    this.#keep = keep;
    for (const entry of tailEntries(file)) this.add(entry);
  }

  add(entry: AuditEntry): void {
    if (entry.server === null) return;
    let kept = this.#byServer.get(entry.server);
    if (!kept) this.#byServer.set(entry.server, (kept = []));
    kept.push(withoutArgs(entry));
    if (kept.length > this.#keep) kept.splice(0, kept.length - this.#keep);
  }

  /** Newest first. */
  latest(server: string, limit: number): AuditEntry[] {
    return (this.#byServer.get(server) ?? []).slice(-limit).reverse();
  }
}

function tailEntries(file: string): AuditEntry[] {
  let text: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const start = Math.max(0, size - TAIL_BYTES);
      const buffer = Buffer.alloc(size - start);
      fs.readSync(fd, buffer, 0, buffer.length, start);
      text = buffer.toString('utf8');
      // Started mid-line: the first (partial) line is dropped.
      if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return [];
  }
  const entries: AuditEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line) as AuditEntry;
      if (typeof entry === 'object' && entry !== null && typeof entry.time === 'string' && typeof entry.name === 'string')
        entries.push(entry);
    } catch {
      // Not an entry: `blitz log calls` names it with its line.
    }
  }
  return entries;
}

/** The page never sees argument values, even those a setting keeps (redacted) in the file. */
function withoutArgs(entry: AuditEntry): AuditEntry {
  if (entry.args === undefined) return entry;
  const { args: _args, ...rest } = entry;
  return rest as AuditEntry;
}
