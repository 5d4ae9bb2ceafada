import type { ServerState } from '@blitz/server-state';
import type { BreakerStatus } from '../breaker/breaker-status.js';

/**
 * What the API, CLI and tray see of one server (MCP-47). `needsSignIn` is a failure the
 * user fixes with `blitz mcp login`, not one the breaker retries; so is `needsMoreAccess`
 * (signed in, but a call was refused for want of a scope, which `scope` names).
 */
export interface ServerStatus {
  name: string;
  state: ServerState;
  error?: string;
  /** While paused: when the daemon makes the trial call (epoch ms); absent while the trial runs. */
  retryAt?: number;
  /** Original tool names, from the last listing. */
  tools: string[];
  /** Catalog and listing warnings for this server. */
  warnings: string[];
  pid?: number;
  /** While `needsMoreAccess`: the scope the server asked for. */
  scope?: string;
  /** Its tools held for review since their definitions were pinned (issue 31); absent when none. */
  review?: ReviewedTool[];
}

/** A tool in review: its definition changed since it was pinned, or it is new in a pinned server. */
export interface ReviewedTool {
  tool: string;
  change: 'changed' | 'new';
}

/** Inputs of the public status; the connection's private state maps onto these (`toView`). */
export type ConnectionView =
  | { kind: 'stopped' }
  | { kind: 'starting' }
  | { kind: 'running'; tools: string[]; pid?: number; moreAccess?: { message: string; scope: string } }
  /** It failed to start, died, or cannot start at all. */
  | { kind: 'failed'; message: string }
  /** With `scope`: signed in, but refused at connect for want of that scope. */
  | { kind: 'needsSignIn'; message: string; scope?: string };

/**
 * The one pure mapping from a connection and its breaker to the public status. A server is
 * shown by its last outcome: after a failure the breaker counts it is `failed` with the
 * reason (its tools still offered) until a call succeeds, `paused` while the breaker holds
 * calls back, and during the pause's trial `starting` (a start) or `paused` (a ping).
 */
export function toServerStatus(
  name: string,
  disabled: boolean,
  view: ConnectionView,
  breaker: BreakerStatus,
  warnings: readonly string[],
): ServerStatus {
  const base = { name, tools: [] as string[], warnings: [...warnings] };
  if (disabled) return { ...base, state: 'disabled' };
  const lastError = (view.kind === 'failed' || view.kind === 'needsSignIn' ? view.message : undefined) ?? breaker.lastFailure;
  const error = lastError === undefined ? {} : { error: lastError };
  const signIn = (v: Extract<ConnectionView, { kind: 'needsSignIn' }>): ServerStatus =>
    v.scope === undefined ? { ...base, state: 'needsSignIn', error: v.message } : { ...base, state: 'needsMoreAccess', error: v.message, scope: v.scope };
  switch (breaker.kind) {
    case 'open':
      return { ...base, state: 'paused', retryAt: breaker.retryAt, ...error };
    case 'halfOpen':
      // A trial on a server with no live link is a start (a live one is pinged).
      if (view.kind === 'starting' || ((view.kind === 'stopped' || view.kind === 'failed') && breaker.trialInFlight)) return { ...base, state: 'starting' };
      if (view.kind === 'needsSignIn') return signIn(view);
      return { ...base, state: 'paused', ...error };
    case 'closed':
      break;
    default: {
      const _exhaustive: never = breaker;
      return _exhaustive;
    }
  }
  switch (view.kind) {
    case 'stopped':
      if (breaker.lastFailure !== undefined) return { ...base, state: 'failed', error: breaker.lastFailure };
      return { ...base, state: 'idle' };
    case 'starting':
      return { ...base, state: 'starting' };
    case 'running': {
      const running = { ...base, tools: [...view.tools], ...(view.pid === undefined ? {} : { pid: view.pid }) };
      if (breaker.lastFailure !== undefined) return { ...running, state: 'failed', error: breaker.lastFailure };
      if (view.moreAccess) return { ...running, state: 'needsMoreAccess', error: view.moreAccess.message, scope: view.moreAccess.scope };
      return { ...running, state: 'connected' };
    }
    case 'failed':
      return { ...base, state: 'failed', error: view.message };
    case 'needsSignIn':
      return signIn(view);
    default: {
      const _exhaustive: never = view;
      return _exhaustive;
    }
  }
}
