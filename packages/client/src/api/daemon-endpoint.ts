/** How to reach the running daemon, and what its `/mcp` endpoint accepts. */

/** `$BLITZ_HOME/state/daemon.json` (0600): how to reach the running daemon. */
export interface DaemonState {
  pid: number;
  port: number;
  token: string;
  version: string;
  startedAt: string;
  /**
   * Its local socket (`daemonSocketPath`), when it listens on one: the same HTTP server as the
   * port, reached without TCP — what `blitz connect` prefers. Absent on a daemon that could not
   * (or, older, does not) listen there.
   */
  socket?: string;
}

/** `GET /v1/environment`: where the daemon looks for the commands of stdio servers. */
export interface DaemonEnvironment {
  /** Its PATH, fixed when it started. */
  path: string;
  /** Its PATHEXT, on Windows. */
  pathext?: string;
  platform: string;
}

/**
 * The `Upgrade` token of `/mcp` for `blitz connect`: after `101 Switching Protocols` the
 * connection carries one JSON-RPC message per line each way (MCP's stdio framing), and the
 * connection is the session.
 */
export const MCP_LINES_PROTOCOL = 'blitz-mcp-lines';

/** The largest message a client may send the hub: a POST body to `/mcp`, or one line. */
export const MAX_CLIENT_MESSAGE_BYTES = 4 * 1024 * 1024;
