import type { ServerState } from '@blitz/server-state';
import type { BreakerStatus } from '../breaker/breaker-status.js';
import { explainCause } from '../causes/explain-cause.js';
import type { CauseCode, ServerCause } from '../causes/server-cause.js';

/**
 * What the API, CLI and tray see of one server (MCP-47). `needsSignIn` is a failure the
 * user fixes with `blitz mcp login`, not one the breaker retries; so is `needsMoreAccess`
 * (signed in, but a call was refused for want of a scope, which `scope` names).
 */
export interface ServerStatus {
  name: string;
  state: ServerState;
  /** The error as it was raised, whole (a stderr tail included): for `mcp get` and the log. */
  error?: string;
  /** With `error`: why, in a person's words, and what to do (`explainCause`); what every surface shows. */
  causeCode?: CauseCode;
  cause?: string;
  remedy?: string;
  /** While paused: when the daemon makes the trial call (epoch ms); absent while the trial runs. */
  retryAt?: number;
  /** Original tool names, from the last listing. */
  tools: string[];
  /** Catalog and listing warnings for this server. */
  warnings: string[];
  pid?: number;
  /** While `needsMoreAccess`: the scope the server asked for. */
  scope?: string;
  /** While `idle`: it was stopped to save memory, unused for its idle timeout; the next call starts it (issue 32.1). */
  reaped?: true;
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
  | { kind: 'idle'; reaped?: true }
  | { kind: 'starting' }
  | { kind: 'connected'; tools: string[]; pid?: number; moreAccess?: { message: string; scope: string } }
  /** It failed to start, died, or cannot start at all. */
  | { kind: 'failed'; message: string; cause: ServerCause }
  /** With `scope`: signed in, but refused at connect for want of that scope. */
  | { kind: 'needsSignIn'; message: string; cause: ServerCause; scope?: string };

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
  const viewed = view.kind === 'failed' || view.kind === 'needsSignIn' ? view : undefined;
  const error = errorFields(name, viewed?.message ?? breaker.lastFailure, viewed?.cause ?? breaker.lastCause);
  const lastFailure = errorFields(name, breaker.lastFailure, breaker.lastCause);
  const signIn = (v: Extract<ConnectionView, { kind: 'needsSignIn' }>): ServerStatus => {
    const fields = errorFields(name, v.message, v.cause);
    return v.scope === undefined
      ? { ...base, state: 'needsSignIn', ...fields }
      : { ...base, state: 'needsMoreAccess', ...fields, scope: v.scope };
  };
  switch (breaker.kind) {
    case 'open':
      return { ...base, state: 'paused', retryAt: breaker.retryAt, ...error };
    case 'halfOpen':
      // A trial on a server with no live link is a start (a live one is pinged).
      if (view.kind === 'starting' || ((view.kind === 'idle' || view.kind === 'failed') && breaker.trialInFlight))
        return { ...base, state: 'starting' };
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
    case 'idle':
      if (breaker.lastFailure !== undefined) return { ...base, state: 'failed', ...lastFailure };
      return view.reaped ? { ...base, state: 'idle', reaped: true } : { ...base, state: 'idle' };
    case 'starting':
      return { ...base, state: 'starting' };
    case 'connected': {
      const running = { ...base, tools: [...view.tools], ...(view.pid === undefined ? {} : { pid: view.pid }) };
      if (breaker.lastFailure !== undefined) return { ...running, state: 'failed', ...lastFailure };
      if (view.moreAccess) {
        const scope = view.moreAccess.scope;
        return {
          ...running,
          state: 'needsMoreAccess',
          ...errorFields(name, view.moreAccess.message, scope ? { code: 'NEEDS_MORE_ACCESS', scope } : { code: 'NEEDS_MORE_ACCESS' }),
          scope,
        };
      }
      return { ...running, state: 'connected' };
    }
    case 'failed':
      return { ...base, state: 'failed', ...errorFields(name, view.message, view.cause) };
    case 'needsSignIn':
      return signIn(view);
    default: {
      const _exhaustive: never = view;
      return _exhaustive;
    }
  }
}

/** The error whole, and its cause and remedy in the vocabulary's words; nothing when there is no error. */
function errorFields(
  name: string,
  message: string | undefined,
  cause: ServerCause | undefined,
): Pick<ServerStatus, 'error' | 'causeCode' | 'cause' | 'remedy'> {
  if (message === undefined) return {};
  const why = explainCause(name, cause ?? { code: 'OTHER', message });
  return { error: message, causeCode: why.code, cause: why.cause, ...(why.remedy === undefined ? {} : { remedy: why.remedy }) };
}
