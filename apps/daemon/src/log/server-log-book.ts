import type { ServerLogLine, ServerLogs } from '@blitz/client';
import type { LogRecord } from './log-record.js';

/** How many lines a server keeps: enough for the page's view to start with, bounded whatever it writes. */
export const SERVER_LOG_LINES = 500;
/** A stderr line longer than this is cut: a server writing without newlines must not grow a line without end. */
const MAX_LINE_CHARS = 4_000;

/**
 * The last lines about each server, for the settings page's live logs view (issue 29.9): its
 * stderr as it writes it, and the daemon's log entries that name it (already redacted). Lines
 * are numbered across all servers, so a reader asks only for those after the last it has.
 */
export class ServerLogBook {
  readonly #keep: number;
  readonly #now: () => number;
  readonly #redact: (text: string) => string;
  readonly #lines = new Map<string, ServerLogLine[]>();
  /** A stderr line not ended yet, per server. */
  readonly #partial = new Map<string, string>();
  #seq = 0;

  constructor(opts: { now(): number; redact(text: string): string; keep?: number }) {
    this.#now = opts.now;
    this.#redact = opts.redact;
    this.#keep = opts.keep ?? SERVER_LOG_LINES;
  }

  /** A chunk of a stdio server's stderr: its whole lines are kept, the rest waits for its end. */
  stderr(server: string, chunk: string): void {
    const text = (this.#partial.get(server) ?? '') + chunk;
    const lines = text.split(/\r?\n/);
    const rest = lines.pop()!;
    if (rest.length > MAX_LINE_CHARS) {
      lines.push(rest);
      this.#partial.delete(server);
    } else this.#partial.set(server, rest);
    for (const line of lines) this.#add(server, { source: 'stderr', text: this.#redact(line.slice(0, MAX_LINE_CHARS)) });
  }

  /** A daemon log entry; kept when it names a server. */
  record(record: LogRecord): void {
    const server = record.fields.server;
    if (typeof server !== 'string') return;
    const details = Object.entries(record.fields)
      .filter(([key, value]) => key !== 'server' && value !== undefined)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
    this.#add(server, { source: 'daemon', level: record.level, text: [record.msg, ...details].join(' ') }, record.time);
  }

  read(server: string, after = 0): ServerLogs {
    const lines = (this.#lines.get(server) ?? []).filter((l) => l.seq > after);
    return { server, lines, last: this.#seq };
  }

  #add(server: string, line: Omit<ServerLogLine, 'seq' | 'time'>, time = this.#now()): void {
    let kept = this.#lines.get(server);
    if (!kept) this.#lines.set(server, (kept = []));
    kept.push({ seq: ++this.#seq, time: new Date(time).toISOString(), ...line });
    if (kept.length > this.#keep) kept.splice(0, kept.length - this.#keep);
  }
}
