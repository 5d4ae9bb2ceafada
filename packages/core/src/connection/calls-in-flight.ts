import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Caller, RequestOwner } from './caller.js';

/**
 * One connection's calls in flight and their callers, to tell whose a server's own request is
 * (MCP-37). Each call gets a key, sent with the request as its `relatedRequestId`; an HTTP link
 * says which call's stream a server's request came on by that key. Otherwise a request can be
 * put to a session only when that session is the only one calling.
 *
 * Not ServerInterest's requests in flight (manager/server-interest.ts), though both count what
 * sessions have under way: this one holds tool calls only, per link, with the SDK session that
 * made each (a server's request must be put to exactly one session, over its stream, or
 * refused); that one holds every kind of session request by session id, across reconnects, so
 * a log message goes to each session with a request under way.
 */
export class CallsInFlight {
  readonly #calls = new Map<string, Caller>();
  #next = 0;

  /** A caller's call starts; `leave` ends it. */
  enter(caller: Caller): { key: string; leave(): void } {
    const key = `call-${++this.#next}`;
    this.#calls.set(key, caller);
    return { key, leave: () => void this.#calls.delete(key) };
  }

  /** `related`: the key of the call on whose stream the request came, when the transport knows it. */
  ownerOf(related: RequestId | undefined): RequestOwner {
    const known = related === undefined ? undefined : this.#calls.get(String(related));
    if (known) return { kind: 'caller', caller: known };
    // Any call of a session reaches the same client: the latest one is taken.
    const sessions = new Map<Caller['session'], Caller>();
    for (const caller of this.#calls.values()) if (!caller.waiting?.()) sessions.set(caller.session, caller);
    if (sessions.size === 0) return { kind: 'none' };
    if (sessions.size === 1) return { kind: 'caller', caller: [...sessions.values()][0]! };
    return { kind: 'unknown', sessions: sessions.size };
  }
}
