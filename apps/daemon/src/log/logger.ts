import path from 'node:path';
import { Redactor } from '@blitz/core';
import { systemClock, type Clock } from '@blitz/clock';
import { LogFile } from './log-file.js';
import { toHumanLine, toJsonLine, type LogFields, type LogLevel, type LogRecord } from './log-record.js';

export const LOG_FILE_NAME = 'blitz.log';

export interface LoggerOptions {
  /** The log folder, `$BLITZ_HOME/logs`; the log is `blitz.log` in it. */
  dir: string;
  maxBytes?: number;
  keep?: number;
  /** Foreground mode: every entry also goes to stderr in a short human form. */
  mirror?: boolean;
  /** Where the mirror and the logger's own trouble go; `process.stderr` unless a test says. */
  stderr?: { write(text: string): unknown };
  /** A redactor shared with the rest of the daemon; a new one otherwise. */
  redactor?: Redactor;
  clock?: Pick<Clock, 'now'>;
  /** Hears every entry once redacted (the settings page's logs view keeps those naming a server). */
  onRecord?(record: LogRecord): void;
}

/**
 * The daemon's log: JSON lines, redacted (MCP-42), in a size-rotated 0600 file, and on
 * stderr in foreground mode. Children add fields and share the file and the secrets.
 */
export class Logger {
  readonly file: string;
  readonly #options: LoggerOptions;
  /** Made on first use; a child is handed its parent's. */
  #sink: LogSink | undefined;
  #fields: LogFields = {};

  constructor(options: LoggerOptions) {
    this.#options = options;
    this.file = path.join(options.dir, LOG_FILE_NAME);
  }

  info(msg: string, fields?: LogFields): void {
    this.#write('info', msg, fields);
  }

  warn(msg: string, fields?: LogFields): void {
    this.#write('warn', msg, fields);
  }

  error(msg: string, fields?: LogFields): void {
    this.#write('error', msg, fields);
  }

  /** A logger that adds `fields` to every entry, on top of this one's. */
  child(fields: LogFields): Logger {
    const child = new Logger(this.#options);
    child.#sink = this.#shared();
    child.#fields = { ...this.#fields, ...fields };
    return child;
  }

  /** Values to mask from now on, for every logger of the tree: header and env values, as settings load. */
  addSecrets(values: Iterable<string>): void {
    this.#shared().addSecrets(values);
  }

  /** Releases the log file (shared with every child); a later entry opens it again. */
  close(): void {
    this.#sink?.close();
  }

  #write(level: LogLevel, msg: string, fields: LogFields | undefined): void {
    this.#shared().write(level, msg, fields ? { ...this.#fields, ...fields } : this.#fields);
  }

  #shared(): LogSink {
    return (this.#sink ??= new LogSink(this.file, this.#options));
  }
}

/** What every logger of one tree shares: the file, the redactor, the mirror. */
class LogSink {
  readonly #file: LogFile;
  readonly #redactor: Redactor;
  readonly #mirror: boolean;
  readonly #stderr: { write(text: string): unknown };
  readonly #clock: Pick<Clock, 'now'>;
  readonly #onRecord: ((record: LogRecord) => void) | undefined;
  /** Set while the file cannot be written, so the trouble is told once, not per entry. */
  #failing = false;

  constructor(file: string, options: LoggerOptions) {
    this.#file = new LogFile({ path: file, maxBytes: options.maxBytes, keep: options.keep });
    this.#redactor = options.redactor ?? new Redactor();
    this.#mirror = options.mirror ?? false;
    this.#stderr = options.stderr ?? process.stderr;
    this.#clock = options.clock ?? systemClock;
    this.#onRecord = options.onRecord;
  }

  addSecrets(values: Iterable<string>): void {
    for (const value of values) this.#redactor.add(value);
  }

  write(level: LogLevel, msg: string, fields: LogFields): void {
    // Redacted as values before anything is serialized, so the JSON stays valid and
    // secret-named fields are masked by name as well as known secrets by value.
    const safeFields = this.#redactor.redactValue(fields) as LogFields;
    const record: LogRecord = { time: this.#clock.now(), level, msg: this.#redactor.redact(msg), fields: safeFields };
    this.#append(toJsonLine(record));
    this.#onRecord?.(record);
    if (this.#mirror) this.#stderr.write(toHumanLine(record));
  }

  close(): void {
    this.#file.close();
  }

  /** Logging never throws into the daemon: a full disk must not take a server call down. */
  #append(line: string): void {
    try {
      this.#file.append(line);
      this.#failing = false;
    } catch (error) {
      if (this.#failing) return;
      this.#failing = true;
      const reason = error instanceof Error ? error.message : String(error);
      this.#stderr.write(`blitz: cannot write the log ${this.#file.path}: ${this.#redactor.redact(reason)}\n`);
    }
  }
}
