import { type GlobalServerStatus } from '@blitz/client';
import { formatDelay } from '@blitz/clock';

const ERROR_CHARS = 60;

/**
 * A server's menu title: its name, plus its state when that needs the user's attention
 * ("github — paused, retrying in 30s"). Idle and connected servers show just the name; the
 * check mark already says whether it is on.
 */
export function serverTitle(server: GlobalServerStatus, now: number): string {
  const { name } = server;
  // Tools held back since their definitions changed (issue 31) need the user whatever the state.
  if (server.review && server.review.length > 0 && (server.state === 'connected' || server.state === 'idle'))
    return `${name} — tools to review`;
  switch (server.state) {
    case 'idle':
      // Stopped after its idle timeout (issue 32.1): worth saying, since it ran a moment ago.
      return server.reaped ? `${name} — idle (stopped to save memory)` : name;
    case 'disabled':
    case 'connected':
      return name;
    case 'starting':
      return `${name} — starting…`;
    case 'failed':
      // The cause in the daemon's words; a daemon from before them sends the error alone.
      if (server.cause) return `${name} — failed: ${truncate(server.cause.replace(/\s+/g, ' '), ERROR_CHARS)}`;
      return server.error ? `${name} — failed: ${shortError(server.error, ERROR_CHARS, name)}` : `${name} — failed`;
    case 'needsSignIn':
      return `${name} — needs sign-in`;
    case 'needsMoreAccess':
      return server.scope ? `${name} — needs more access (${truncate(server.scope, ERROR_CHARS)})` : `${name} — needs more access`;
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
  // Past the cooldown the daemon makes the trial call itself; so does a status without a time.
  if (Number.isNaN(at) || at <= now) return 'retrying now';
  return `retrying in ${formatDelay(at - now)}`;
}

/**
 * An error as a menu item holds it: its first line, squeezed and cut to fit. The server's
 * name, already in the title, is dropped from its start, and an exit's "its stderr ends with:"
 * gives way to the stderr's last line, usually the cause.
 */
export function shortError(error: string, max = ERROR_CHARS, server?: string): string {
  const [first = '', ...rest] = error
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  let line = first;
  if (line.endsWith(':') && rest.length > 0) line = `${line.replace(/;? its stderr ends with:$/, '').replace(/:$/, '')}: ${rest.at(-1)}`;
  const prefix = server === undefined ? '' : `MCP server ${server} `;
  if (prefix && line.startsWith(prefix)) line = line.slice(prefix.length);
  return truncate(line, max);
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** Text broken into lines of at most `width` characters, at spaces where it can be; a longer word is split. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (rest.length > 0) {
      const room = line === '' ? width : width - line.length - 1;
      if (rest.length <= room) {
        line = line === '' ? rest : `${line} ${rest}`;
        rest = '';
      } else if (line !== '' && (rest.length <= width || room < 8)) {
        // The word fits on a line of its own (or little room is left): start one.
        lines.push(line);
        line = '';
      } else {
        // A word longer than a line (a path): fill this line with its head.
        lines.push(line === '' ? rest.slice(0, room) : `${line} ${rest.slice(0, room)}`);
        line = '';
        rest = rest.slice(room);
      }
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
