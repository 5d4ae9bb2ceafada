/**
 * A server's state as everyone outside core sees it (MCP-47): the control API, `blitz mcp
 * list`, the tray and the settings page. Declared here once, for core, which produces it, and
 * `@blitz/client`, which carries it, since neither may import the other. `needsSignIn` and
 * `needsMoreAccess` are fixed by the user with `blitz mcp login`, not retried by the breaker;
 * `paused` is the breaker holding calls back.
 */
export const SERVER_STATES = ['disabled', 'idle', 'starting', 'connected', 'failed', 'needsSignIn', 'needsMoreAccess', 'paused'] as const;

export type ServerState = (typeof SERVER_STATES)[number];

/**
 * Why a server is not working, as a code (issue 29.2): core's `ServerCause` facts carry one,
 * and the API shows it beside the cause and remedy in words, for a client to switch on.
 */
export const CAUSE_CODES = [
  'COMMAND_NOT_FOUND',
  'SANDBOX_UNAVAILABLE',
  'SANDBOX_DENIED',
  'CANNOT_START',
  'EXITED',
  'START_TIMEOUT',
  'CALL_TIMEOUT',
  'CONNECTION_REFUSED',
  'HOST_NOT_FOUND',
  'HTTP_STATUS',
  'CONNECTION_CLOSED',
  'NEEDS_SIGN_IN',
  'NEEDS_MORE_ACCESS',
  'OTHER',
] as const;

export type CauseCode = (typeof CAUSE_CODES)[number];
