import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Clock, Timer } from '@blitz/clock';

/** How long a call waits for the client's retry with its answers before its server's questions are answered with an error. */
export const INPUT_WAIT_MS = 10 * 60_000;

/** What one call's `requestState` binds: which wait, which round, and the request it may resume. */
export interface WaitClaim {
  wait: string;
  round: number;
  method: string;
  /** The tool's or prompt's name, or the resource's URI: a retry must name the same. */
  name: string | undefined;
}

/** A call waiting for its client's answers: `expire` runs when the client never comes back. */
export interface Waiting {
  expire(): void;
}

interface Entry<W> {
  waiting: W;
  round: number;
  timer: Timer;
}

export type Opened<W> = { ok: true; waiting: W; claim: WaitClaim } | { ok: false; message: string };

/**
 * The calls held for a 2026-07-28 client between its rounds (MRTR), daemon-wide: each is
 * named by a random id inside an HMAC-signed `requestState` (a key of this daemon's run), so
 * a state the client altered, or one of another round, resumes nothing. A wait not resumed
 * within `INPUT_WAIT_MS` (on the injected clock) expires: its holder answers the server's
 * questions with an error and lets go, so nothing is held for a client that went away.
 */
export class InputWaits<W extends Waiting = Waiting> {
  readonly #key = randomBytes(32);
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #entries = new Map<string, Entry<W>>();

  constructor(clock: Clock, ttlMs = INPUT_WAIT_MS) {
    this.#clock = clock;
    this.#ttlMs = ttlMs;
  }

  /** The clock the waits run on (a call's questions are gathered on it too). */
  get clock(): Clock {
    return this.#clock;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** A new round of `waiting` (a new wait when `wait` is undefined): its requestState, and the expiry restarted. */
  seal(waiting: W, wait: string | undefined, method: string, name: string | undefined): { wait: string; state: string } {
    const id = wait ?? randomUUID();
    const previous = this.#entries.get(id);
    previous?.timer.cancel();
    const round = (previous?.round ?? 0) + 1;
    const timer = this.#clock.setTimeout(() => {
      if (this.#entries.get(id)?.timer !== timer) return;
      this.#entries.delete(id);
      waiting.expire();
    }, this.#ttlMs);
    this.#entries.set(id, { waiting, round, timer });
    const claim: WaitClaim = { wait: id, round, method, name };
    const body = Buffer.from(JSON.stringify(claim)).toString('base64url');
    return { wait: id, state: `${body}.${this.#sign(body)}` };
  }

  /** The wait a retry's `requestState` names, when it is intact, current and for the same request. */
  open(state: unknown, method: string, name: string | undefined): Opened<W> {
    if (typeof state !== 'string') return { ok: false, message: 'requestState must be the string the hub gave' };
    const [body, mac, ...rest] = state.split('.');
    if (body === undefined || mac === undefined || rest.length > 0 || !this.#verify(body, mac))
      return { ok: false, message: 'requestState failed its integrity check (it is not one this hub gave, or it was altered)' };
    const claim = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as WaitClaim;
    const entry = this.#entries.get(claim.wait);
    if (!entry)
      return {
        ok: false,
        message: 'requestState names a call that is no longer waiting (it expired or was answered); call again without it',
      };
    if (entry.round !== claim.round)
      return { ok: false, message: `requestState is of round ${claim.round}; the call is at round ${entry.round}` };
    if (claim.method !== method || claim.name !== name)
      return {
        ok: false,
        message: `requestState belongs to ${claim.method} ${claim.name ?? ''}, not to this ${method} ${name ?? ''}`.trim(),
      };
    return { ok: true, waiting: entry.waiting, claim };
  }

  /** The wait is over (answered, cancelled, its holder closed): no expiry, no resuming. */
  end(wait: string | undefined): void {
    if (wait === undefined) return;
    this.#entries.get(wait)?.timer.cancel();
    this.#entries.delete(wait);
  }

  /** Every wait ends now as if expired (the daemon is stopping): each holder answers its server and lets go. */
  expireAll(): void {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    for (const entry of entries) {
      entry.timer.cancel();
      entry.waiting.expire();
    }
  }

  #sign(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }

  #verify(body: string, mac: string): boolean {
    const expected = Buffer.from(this.#sign(body));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
