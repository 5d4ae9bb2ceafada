import type { GlobalServerStatus, ServerState } from '@blitz/client/api-types';
import { formatDelay } from '@blitz/clock';

/** A server's live state as one short phrase, the tray's words (MCP-41). */
export function stateText(server: Pick<GlobalServerStatus, 'name' | 'state' | 'retryAt' | 'scope' | 'reaped'>, now: number): string {
  const state: ServerState = server.state;
  switch (state) {
    case 'disabled':
      return 'off';
    case 'idle':
      return server.reaped ? 'idle (stopped to save memory)' : 'idle (starts when a client lists its tools)';
    case 'starting':
      return 'starting…';
    case 'connected':
      return 'connected';
    case 'failed':
      return 'failed';
    case 'needsSignIn':
      // The server's view has the Sign in button (issue 29.7); the remedy names the command.
      return 'needs sign-in';
    case 'needsMoreAccess':
      return `needs more access${server.scope ? ` (scope "${server.scope}")` : ''}`;
    case 'paused':
      return server.retryAt === undefined ? 'paused' : `paused, retrying in ${formatDelay(Date.parse(server.retryAt) - now)}`;
    default: {
      const _exhaustive: never = state;
      return _exhaustive;
    }
  }
}

/** The command line or address a server runs, as the list shows it. */
export function targetText(config: Record<string, unknown>): string {
  if (typeof config.url === 'string') return config.url;
  if (typeof config.command !== 'string') return '';
  const args = Array.isArray(config.args) ? config.args.map(String) : [];
  return [String(config.command ?? ''), ...args.map((a) => (/[\s"']/.test(a) || a === '' ? JSON.stringify(a) : a))].join(' ');
}
