/** One line of a server's log as the settings page shows it (issue 29.9). */
export interface ServerLogLine {
  /** Numbered across all servers: ask for those after the last one read. */
  seq: number;
  /** ISO 8601 */
  time: string;
  /** `stderr`: what the server wrote; `daemon`: the daemon's own log entry about it. */
  source: 'stderr' | 'daemon';
  level?: 'info' | 'warn' | 'error';
  text: string;
}

/** `GET /v1/logs/NAME[?after=SEQ]`: its last lines (up to 500), those after `after` only when given. */
export interface ServerLogs {
  server: string;
  lines: ServerLogLine[];
  /** The highest line number so far, for the next `?after=`. */
  last: number;
}
