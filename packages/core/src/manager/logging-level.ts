import { LoggingLevelSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';

/** The MCP logging levels, least severe first (RFC 5424's order). */
const ORDER: readonly LoggingLevel[] = LoggingLevelSchema.options;

/** Whether a message at `level` passes a client that asked for `threshold` and above. */
export function passesLevel(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold === undefined || ORDER.indexOf(level) >= ORDER.indexOf(threshold);
}

/** The most verbose of these levels: what a server must send for every one of its listeners. */
export function mostVerbose(levels: Iterable<LoggingLevel>): LoggingLevel | undefined {
  let found: LoggingLevel | undefined;
  for (const level of levels) if (found === undefined || ORDER.indexOf(level) < ORDER.indexOf(found)) found = level;
  return found;
}
