import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Timer } from '@blitz/clock';
import { causeOf } from '../causes/server-cause.js';
import type { BlitzError } from '../errors/blitz-error.js';
import { NeedsMoreAccess } from './http/http-failure.js';
import type { Link } from './link.js';
import type { ConnectionView } from './server-status.js';

/**
 * One server connection's private state: the whole truth about it, resources included (the
 * live link, the refresh timer). Everyone else sees `toView` of it, through `status()`.
 * Whether the breaker holds the server back is the breaker's state, combined in the status.
 */
export type ConnectionState =
  /** Never started, or stopped on purpose (`reaped`: unused for its idle timeout, issue 32.1): the next use starts it. */
  | { kind: 'idle'; reaped?: true }
  | { kind: 'starting'; attempt: Promise<Connected> }
  /**
   * `moreAccess`: a call was refused for want of a scope (the link stays, other tools work).
   * `refresh`: the pending relisting after `tools/list_changed`; it goes when this state goes.
   */
  | { kind: 'connected'; link: Link; tools: Tool[]; listingWarning?: string; moreAccess?: NeedsMoreAccess; refresh?: Timer }
  /** The start failed or the process died; the next use starts it afresh (the breaker permitting). */
  | { kind: 'failed'; error: BlitzError }
  /** The server wants a sign-in (a `NeedsMoreAccess`: one asking for more scope); only the user can fix it. */
  | { kind: 'needsSignIn'; error: BlitzError }
  /** Its settings cannot start it (a variable not set, …); nothing is tried until they change. */
  | { kind: 'unavailable'; error: BlitzError };

export type Connected = Extract<ConnectionState, { kind: 'connected' }>;

/** The plain inputs of the public status: no link, no timer. */
export function toView(state: ConnectionState): ConnectionView {
  switch (state.kind) {
    case 'idle':
      return state.reaped ? { kind: 'idle', reaped: true } : { kind: 'idle' };
    case 'starting':
      return { kind: 'starting' };
    case 'connected':
      return {
        kind: 'connected',
        tools: state.tools.map((t) => t.name),
        ...(state.link.pid === undefined ? {} : { pid: state.link.pid }),
        ...(state.moreAccess ? { moreAccess: { message: state.moreAccess.message, scope: state.moreAccess.scope } } : {}),
      };
    case 'failed':
    case 'unavailable':
      return { kind: 'failed', message: state.error.message, cause: causeOf(state.error) };
    case 'needsSignIn':
      // Refused at connect (initialize or tools/list) for want of a scope: the sign-in must ask for it.
      return {
        kind: 'needsSignIn',
        message: state.error.message,
        cause: causeOf(state.error),
        ...(state.error instanceof NeedsMoreAccess ? { scope: state.error.scope } : {}),
      };
    default: {
      const _exhaustive: never = state;
      return _exhaustive;
    }
  }
}
