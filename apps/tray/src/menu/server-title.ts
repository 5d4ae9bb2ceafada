import { formatDelay, type GlobalServerStatus } from '@blitz/client';

const ERROR_CHARS = 60;

/**
 * A server's menu title: its name, plus its state when that needs the user's attention
 * ("github — paused, retrying in 30s"). Idle and connected servers show just the name; the
 * check mark already says whether it is on.
 */
export function serverTitle(server: GlobalServerStatus, now: number): string {
  const { name } = server;
  switch (server.state) {
    case 'disabled':
    case 'idle':
    case 'connected':
      return name;
    case 'starting':
      return `${name} — starting…`;
    case 'failed':
      return server.error ? `${name} — failed: ${shortError(server.error)}` : `${name} — failed`;
    case 'needsSignIn':
      return `${name} — needs sign-in`;
    case 'paused':
      return `${name} — paused, ${retryText(server.retryAt, now)}`;
    default: {
      const _exhaustive: never = server.state;
      return _exhaustive;
    }
  }
}

function retryText(retryAt: string | undefined, now: number): string {
  const at = retryAt === undefined ? Number.NaN : Date.parse(retryAt);
  if (Number.isNaN(at)) return 'retrying later';
  // Past the cooldown the breaker lets the next call through as a trial.
  if (at <= now) return 'retrying at the next call';
  return `retrying in ${formatDelay(at - now)}`;
}

/** The first line of an error, squeezed and cut to fit a menu item. */
export function shortError(error: string, max = ERROR_CHARS): string {
  const line = (error.split('\n').find((l) => l.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
  return truncate(line, max);
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

