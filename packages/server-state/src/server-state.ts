/**
 * A server's state as everyone outside core sees it (MCP-47): the control API, `blitz mcp
 * list`, the tray and the settings page. Declared here once, for core, which produces it, and
 * `@blitz/client`, which carries it, since neither may import the other. `needsSignIn` and
 * `needsMoreAccess` are fixed by the user with `blitz mcp login`, not retried by the breaker;
 * `paused` is the breaker holding calls back.
 */
export const SERVER_STATES = ['disabled', 'idle', 'starting', 'connected', 'failed', 'needsSignIn', 'needsMoreAccess', 'paused'] as const;

export type ServerState = (typeof SERVER_STATES)[number];
