import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '@blitz/clock';

/** A code from `blitz settings` opens the page once, within a minute. */
export const CODE_TTL_MS = 60_000;
/** A page left alone this long must be opened again with a new code. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_COOKIE = 'blitz_settings';
/** Every request of the page that changes something carries its session's token in this header. */
export const CSRF_HEADER = 'x-blitz-csrf';
const MAX_SESSIONS = 32;
/** A session's use is written down at most this often: a crash loses at most this much of its idle time. */
const SAVE_USE_MS = 5 * 60 * 1000;

export interface PageSession {
  /** The SHA-256 of the cookie's value: the file keeps this, never the value itself. */
  readonly key: string;
  readonly csrf: string;
  lastSeen: number;
}

/** A session just made from a code: the only time its cookie's value is known. */
export interface NewPageSession extends PageSession {
  readonly id: string;
}

interface SavedSession {
  key: string;
  csrf: string;
  lastSeen: number;
}

export interface PageSessionsOptions {
  /** Where sessions outlive the daemon (`state/page-sessions.json`, 0600); none: in memory only. */
  file?: string;
  warn?(message: string): void;
}

/**
 * The settings page's sign-in, without the bearer token ever in a URL: a one-time code
 * (valid once, for a minute) is traded for a session cookie (`HttpOnly; SameSite=Strict`),
 * and every write also needs the session's CSRF token in a header. Sessions are kept in a
 * file, so an open page goes on working across a restart of the daemon, within its idle time.
 */
export class PageSessions {
  readonly #clock: Clock;
  readonly #opts: PageSessionsOptions;
  readonly #codes = new Map<string, number>();
  readonly #sessions = new Map<string, PageSession>();
  /** lastSeen of each session as the file has it. */
  readonly #saved = new Map<string, number>();

  constructor(clock: Clock, opts: PageSessionsOptions = {}) {
    this.#clock = clock;
    this.#opts = opts;
    for (const s of this.#load()) {
      this.#sessions.set(s.key, s);
      this.#saved.set(s.key, s.lastSeen);
    }
    this.#prune();
  }

  issueCode(): { code: string; expiresAt: number } {
    this.#prune();
    const code = token();
    const expiresAt = this.#clock.now() + CODE_TTL_MS;
    this.#codes.set(code, expiresAt);
    return { code, expiresAt };
  }

  /** A new session for a code not used before and not expired; the code is spent either way. */
  redeem(code: string): NewPageSession | undefined {
    this.#prune();
    const expiresAt = this.#codes.get(code);
    this.#codes.delete(code);
    if (expiresAt === undefined || expiresAt <= this.#clock.now()) return undefined;
    // The oldest session makes way, so a loop of codes cannot grow the daemon.
    if (this.#sessions.size >= MAX_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
    const id = token();
    const session: NewPageSession = { id, key: keyOf(id), csrf: token(), lastSeen: this.#clock.now() };
    this.#sessions.set(session.key, session);
    this.#save();
    return session;
  }

  /** The live session a `Cookie` header names, its idle time restarted; undefined otherwise. */
  fromCookie(header: string | undefined): PageSession | undefined {
    const id = cookieValue(header, SESSION_COOKIE);
    if (id === undefined) return undefined;
    const key = keyOf(id);
    const session = this.#sessions.get(key);
    if (!session) return undefined;
    if (this.#clock.now() - session.lastSeen >= SESSION_IDLE_MS) {
      this.#sessions.delete(key);
      this.#save();
      return undefined;
    }
    session.lastSeen = this.#clock.now();
    if (session.lastSeen - (this.#saved.get(key) ?? 0) >= SAVE_USE_MS) this.#save();
    return session;
  }

  csrfMatches(session: PageSession, header: string | string[] | undefined): boolean {
    if (typeof header !== 'string') return false;
    const given = Buffer.from(header);
    const expected = Buffer.from(session.csrf);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  /** The `Set-Cookie` value for a session: not readable by scripts, never sent from another site. */
  cookieFor(session: NewPageSession): string {
    return `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Strict`;
  }

  #prune(): void {
    const now = this.#clock.now();
    for (const [code, expiresAt] of this.#codes) if (expiresAt <= now) this.#codes.delete(code);
    for (const [key, session] of this.#sessions) if (now - session.lastSeen >= SESSION_IDLE_MS) this.#sessions.delete(key);
  }

  #load(): PageSession[] {
    if (this.#opts.file === undefined) return [];
    let text: string;
    try {
      text = fs.readFileSync(this.#opts.file, 'utf8');
    } catch {
      return []; // none yet
    }
    try {
      const saved = JSON.parse(text) as { sessions?: unknown };
      if (!Array.isArray(saved.sessions)) throw new Error('no "sessions" list');
      return saved.sessions.filter(isSaved).slice(-MAX_SESSIONS);
    } catch (err) {
      // A session lost costs a new `blitz settings`, nothing more: the file is written anew.
      this.#opts.warn?.(
        `settings page sessions in ${this.#opts.file} could not be read (${(err as Error).message}); open pages must be opened again`,
      );
      return [];
    }
  }

  /** Small and rewritten whole, beside and renamed over the old one, 0600. */
  #save(): void {
    const file = this.#opts.file;
    if (file === undefined) return;
    const sessions: SavedSession[] = [...this.#sessions.values()].map(({ key, csrf, lastSeen }) => ({ key, csrf, lastSeen }));
    const temp = `${file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(temp, `${JSON.stringify({ sessions })}\n`, { mode: 0o600 });
      fs.chmodSync(temp, 0o600);
      fs.renameSync(temp, file);
      this.#saved.clear();
      for (const s of sessions) this.#saved.set(s.key, s.lastSeen);
    } catch (err) {
      fs.rmSync(temp, { force: true });
      this.#opts.warn?.(
        `settings page sessions could not be written to ${file} (${(err as Error).message}); they end when the daemon stops`,
      );
    }
  }
}

function isSaved(value: unknown): value is SavedSession {
  const s = value as Partial<SavedSession> | null;
  return typeof s === 'object' && s !== null && typeof s.key === 'string' && typeof s.csrf === 'string' && typeof s.lastSeen === 'number';
}

function token(): string {
  return crypto.randomBytes(32).toString('base64url');
}

function keyOf(id: string): string {
  return crypto.createHash('sha256').update(id).digest('hex');
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
