import crypto from 'node:crypto';
import type { Clock } from '@blitz/clock';

/** A code from `blitz settings` opens the page once, within a minute. */
export const CODE_TTL_MS = 60_000;
/** A page left alone this long must be opened again with a new code. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_COOKIE = 'blitz_settings';
/** Every request of the page that changes something carries its session's token in this header. */
export const CSRF_HEADER = 'x-blitz-csrf';
const MAX_SESSIONS = 32;

export interface PageSession {
  readonly id: string;
  readonly csrf: string;
  lastSeen: number;
}

/**
 * The settings page's sign-in, without the bearer token ever in a URL: a one-time code
 * (valid once, for a minute) is traded for a session cookie (`HttpOnly; SameSite=Strict`),
 * and every write also needs the session's CSRF token in a header.
 */
export class PageSessions {
  readonly #clock: Clock;
  readonly #codes = new Map<string, number>();
  readonly #sessions = new Map<string, PageSession>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  issueCode(): { code: string; expiresAt: number } {
    this.#prune();
    const code = token();
    const expiresAt = this.#clock.now() + CODE_TTL_MS;
    this.#codes.set(code, expiresAt);
    return { code, expiresAt };
  }

  /** A new session for a code not used before and not expired; the code is spent either way. */
  redeem(code: string): PageSession | undefined {
    this.#prune();
    const expiresAt = this.#codes.get(code);
    this.#codes.delete(code);
    if (expiresAt === undefined || expiresAt <= this.#clock.now()) return undefined;
    // The oldest session makes way, so a loop of codes cannot grow the daemon.
    if (this.#sessions.size >= MAX_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
    const session: PageSession = { id: token(), csrf: token(), lastSeen: this.#clock.now() };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The live session a `Cookie` header names, its idle time restarted; undefined otherwise. */
  fromCookie(header: string | undefined): PageSession | undefined {
    const id = cookieValue(header, SESSION_COOKIE);
    if (id === undefined) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    if (this.#clock.now() - session.lastSeen >= SESSION_IDLE_MS) {
      this.#sessions.delete(id);
      return undefined;
    }
    session.lastSeen = this.#clock.now();
    return session;
  }

  csrfMatches(session: PageSession, header: string | string[] | undefined): boolean {
    if (typeof header !== 'string') return false;
    const given = Buffer.from(header);
    const expected = Buffer.from(session.csrf);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  /** The `Set-Cookie` value for a session: not readable by scripts, never sent from another site. */
  cookieFor(session: PageSession): string {
    return `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Strict`;
  }

  #prune(): void {
    const now = this.#clock.now();
    for (const [code, expiresAt] of this.#codes) if (expiresAt <= now) this.#codes.delete(code);
    for (const [id, session] of this.#sessions) if (now - session.lastSeen >= SESSION_IDLE_MS) this.#sessions.delete(id);
  }
}

function token(): string {
  return crypto.randomBytes(32).toString('base64url');
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
