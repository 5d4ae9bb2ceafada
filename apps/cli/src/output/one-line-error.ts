import { crashLine } from '@blitz/core';

/** The longest error `blitz mcp list` prints on a server's line. */
export const ONE_LINE_ERROR_MAX = 200;

/**
 * A server's error on one line, for a table: its first line, and when more follow (a stderr
 * tail) the line of it that says what went wrong (`crashLine`), both cut to `max` characters in all.
 */
export function oneLineError(message: string, max = ONE_LINE_ERROR_MAX): string {
  const [head = '', ...rest] = message.split(/\r?\n/);
  const cause = crashLine(rest);
  const line = cause === undefined ? head.trim() : `${head.trim().replace(/:$/, '')}: ${cause}`;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
