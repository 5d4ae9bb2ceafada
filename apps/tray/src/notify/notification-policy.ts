import type { GlobalServerStatus, Notice } from '@blitz/client';

/**
 * How long a server must stay working after it came back before a new failure is news again:
 * a server that crashes on every call comes back at every start, and must not notify each time.
 */
export const STABLE_MS = 60_000;

/**
 * What the user was last told of one server, kept across tray and daemon restarts (in
 * tray.json), so a failure that never went away is not told again. `since`: when it came
 * back; a failure before it held `STABLE_MS` is flapping.
 */
export interface Told {
  kind: 'failed' | 'paused' | 'keepsFailing' | 'signIn';
  cause: string;
  since?: number;
}

export type ToldServers = Readonly<Record<string, Told>>;

/** A notice worth a notification. */
export interface ToTell {
  notice: Notice;
  /** The title's word, when not the notice kind's own. */
  word?: string;
}

/**
 * Which notices become notifications (issue 29.4): a change a person should act on, once. A
 * failure is told when it starts (or its cause changes), a pause once, and neither again
 * after a tray or daemon restart; a recovery at once. A server that fails again before it
 * held `STABLE_MS` is one "keeps failing", then silence until it stayed up that long. Pure:
 * the tray passes the time and what it told before, and keeps what comes back.
 */
export function toTell(
  told: ToldServers,
  notices: readonly Notice[],
  servers: readonly GlobalServerStatus[] | undefined,
  now: number,
): { tell: ToTell[]; told: ToldServers } {
  const next: Record<string, Told> = { ...told };
  const tell: ToTell[] = [];
  const recovered = (server: string, notice?: Notice) => {
    const before = next[server];
    if (!before || before.since !== undefined) return;
    next[server] = { ...before, since: now };
    if (before.kind !== 'keepsFailing') tell.push({ notice: notice ?? recoveryNotice(server, now) });
  };
  for (const notice of notices) {
    const kind = notice.kind;
    switch (kind) {
      case 'review':
      case 'audit':
      case 'sandbox':
        // Blitz's own notices, each told as it comes.
        tell.push({ notice });
        break;
      case 'failed':
      case 'paused': {
        const cause = notice.cause ?? notice.message;
        const before = next[notice.server];
        if (before === undefined) {
          tell.push({ notice });
          next[notice.server] = { kind, cause };
        } else if (before.since !== undefined) {
          // It came back and failed again before it held: flapping, told once.
          if (before.kind !== 'keepsFailing') tell.push({ notice, word: 'keeps failing' });
          next[notice.server] = { kind: 'keepsFailing', cause };
        } else if (before.kind === 'failed' && (kind === 'paused' || before.cause !== cause)) {
          // Calls are now refused, or it fails for another reason: news. The same failure again is not.
          tell.push({ notice });
          next[notice.server] = { kind, cause };
        }
        break;
      }
      case 'recovered':
        recovered(notice.server, notice);
        break;
      default: {
        const _exhaustive: never = kind;
        return _exhaustive;
      }
    }
  }
  // A server that waits for a sign-in is told once, with what to do (issue 29.7); again only
  // after it was signed in (or switched off) and needs it anew.
  for (const s of servers ?? []) {
    if (s.state === 'needsSignIn' && next[s.name] === undefined) {
      tell.push({ notice: signInNotice(s.name, now), word: 'needs sign-in' });
      next[s.name] = { kind: 'signIn', cause: 'needs sign-in' };
    }
  }
  for (const [server, state] of Object.entries(next)) {
    const status = servers?.find((s) => s.name === server);
    if (state.kind === 'signIn') {
      if (servers !== undefined && status?.state !== 'needsSignIn') delete next[server];
      continue;
    }
    // Switched off or removed: nothing to tell, nothing to remember.
    if (servers !== undefined && (status === undefined || status.state === 'disabled')) {
      delete next[server];
      continue;
    }
    // Connected again with no recovery notice (fixed by an edit, a new daemon): it came back.
    if (state.since === undefined && status?.state === 'connected') recovered(server);
    const current = next[server]!;
    if (
      current.since !== undefined &&
      now - current.since >= STABLE_MS &&
      (status === undefined || status.state === 'connected' || status.state === 'idle')
    ) {
      // It held: a flapping server's end is told now; any other's was told when it came back.
      if (current.kind === 'keepsFailing') tell.push({ notice: recoveryNotice(server, now) });
      delete next[server];
    }
  }
  return { tell, told: next };
}

function signInNotice(server: string, now: number): Notice {
  return {
    id: 0,
    time: new Date(now).toISOString(),
    server,
    kind: 'paused',
    message: `MCP server ${server} needs you to sign in`,
    cause: 'it needs you to sign in',
    remedy: `choose "Sign in to ${server}…" in the Blitz menu, or run blitz mcp login ${server}`,
  };
}

function recoveryNotice(server: string, now: number): Notice {
  return { id: 0, time: new Date(now).toISOString(), server, kind: 'recovered', message: `MCP server ${server} is working again` };
}
