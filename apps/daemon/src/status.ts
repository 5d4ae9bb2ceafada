import type { ServerConfig, ServerStatus } from '@blitz/core';
import type { GlobalServerStatus, ServerState } from '@blitz/client';

/** When workspaces disagree, the state the user most needs to hear wins. */
const PRECEDENCE: ServerState[] = ['paused', 'failed', 'needsSignIn', 'needsMoreAccess', 'connected', 'starting', 'idle', 'disabled'];

/**
 * A global server's state for the tray: disabled when switched off, otherwise the most
 * telling state among the open workspaces running it (idle when none does).
 */
export function globalServerStatus(config: ServerConfig, running: readonly ServerStatus[]): GlobalServerStatus {
  const base: GlobalServerStatus = { name: config.name, enabled: !config.disabled, transport: config.transport.kind, state: 'idle' };
  if (config.disabled) return { ...base, state: 'disabled' };
  const worst = [...running].sort((a, b) => PRECEDENCE.indexOf(a.state) - PRECEDENCE.indexOf(b.state))[0];
  if (!worst) return base;
  return {
    ...base,
    state: worst.state,
    ...(worst.error === undefined ? {} : { error: worst.error }),
    ...(worst.retryAt === undefined ? {} : { retryAt: new Date(worst.retryAt).toISOString() }),
    ...(worst.scope === undefined ? {} : { scope: worst.scope }),
  };
}
