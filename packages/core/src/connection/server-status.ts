import type { BreakerStatus } from '../breaker/breaker-status.js';

/**
 * What the API, CLI and tray see of one server (MCP-47). `needsSignIn` is a failure the
 * user fixes with `blitz mcp login`, not one the breaker retries.
 */
export type ServerState = 'disabled' | 'idle' | 'starting' | 'connected' | 'failed' | 'needsSignIn' | 'paused';

export interface ServerStatus {
  name: string;
  state: ServerState;
  error?: string;
  /** While paused: when the breaker lets a trial call through (epoch ms). */
  retryAt?: number;
  /** Original tool names, from the last listing. */
  tools: string[];
  /** Catalog and listing warnings for this server. */
  warnings: string[];
  pid?: number;
}

/** Inputs of the public status; the connection's private state maps onto these. */
export type ConnectionView =
  | { kind: 'stopped'; lastError?: { message: string; needsSignIn: boolean } }
  | { kind: 'starting' }
  | { kind: 'running'; tools: string[]; pid?: number }
  | { kind: 'failed'; message: string; needsSignIn: boolean };

/** The one pure mapping from a connection and its breaker to the public status. */
export function toServerStatus(
  name: string,
  disabled: boolean,
  view: ConnectionView,
  breaker: BreakerStatus,
  warnings: readonly string[],
): ServerStatus {
  const base = { name, tools: [] as string[], warnings: [...warnings] };
  if (disabled) return { ...base, state: 'disabled' };
  if (breaker.kind === 'open') {
    const lastError = view.kind === 'failed' ? view.message : view.kind === 'stopped' ? view.lastError?.message : undefined;
    return { ...base, state: 'paused', retryAt: breaker.retryAt, ...(lastError === undefined ? {} : { error: lastError }) };
  }
  switch (view.kind) {
    case 'stopped':
      if (view.lastError) return { ...base, state: view.lastError.needsSignIn ? 'needsSignIn' : 'failed', error: view.lastError.message };
      return { ...base, state: 'idle' };
    case 'starting':
      return { ...base, state: 'starting' };
    case 'running':
      return { ...base, state: 'connected', tools: [...view.tools], ...(view.pid === undefined ? {} : { pid: view.pid }) };
    case 'failed':
      return { ...base, state: view.needsSignIn ? 'needsSignIn' : 'failed', error: view.message };
    default: {
      const _exhaustive: never = view;
      return _exhaustive;
    }
  }
}
