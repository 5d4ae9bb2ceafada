import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Caller, RequestOwner } from './caller.js';

/** A client's request as the hub received it: the session it came on, and its id there. */
export interface SessionRequest {
  readonly session: string;
  readonly requestId: RequestId;
}

/** One request under way to a server: the session request it serves, and who made it when its server may ask them something (a tool call, a prompt's get, a resource's read). */
export interface CallUse {
  request?: SessionRequest;
  caller?: Caller;
}

/**
 * One server's requests in flight (calls, reads, prompts, completions, subscriptions), each
 * registered once, by the connection for a tool call and by ServerInterest for the rest, and
 * read by all: the connection tells whose a server's own request is (MCP-37), the interest
 * which sessions a log message goes to, the idle reaper whether the server is in use.
 *
 * Each request gets a key, sent with a tool call as its `relatedRequestId`; an HTTP link says
 * which call's stream a server's request came on by that key. Otherwise a request can be put to
 * a session only when that session is the only one calling a tool.
 */
export class CallsInFlight {
  readonly #uses = new Map<string, CallUse>();
  readonly #onChange: () => void;
  #next = 0;

  /** `onChange`: a request began or ended (the idle countdown starts again, idle-reaper.ts). */
  constructor(onChange: () => void = () => undefined) {
    this.#onChange = onChange;
  }

  /** Requests under way, with a session's id or without. */
  get size(): number {
    return this.#uses.size;
  }

  /** A request starts; `leave` ends it. */
  enter(use: CallUse): { key: string; leave(): void } {
    const key = `call-${++this.#next}`;
    this.#uses.set(key, use);
    this.#onChange();
    return {
      key,
      leave: () => {
        if (this.#uses.delete(key)) this.#onChange();
      },
    };
  }

  /** The session requests under way, oldest first: a log message sent now concerns these. */
  requests(): SessionRequest[] {
    return [...this.#uses.values()].flatMap((u) => (u.request ? [u.request] : []));
  }

  /** `related`: the key of the call on whose stream the request came, when the transport knows it. */
  ownerOf(related: RequestId | undefined): RequestOwner {
    const known = related === undefined ? undefined : this.#uses.get(String(related))?.caller;
    if (known) return { kind: 'caller', caller: known };
    // Any call of a session reaches the same client: the latest one is taken.
    const sessions = new Map<Caller['session'], Caller>();
    for (const { caller } of this.#uses.values()) if (caller && !caller.waiting?.()) sessions.set(caller.session, caller);
    if (sessions.size === 0) return { kind: 'none' };
    if (sessions.size === 1) return { kind: 'caller', caller: [...sessions.values()][0]! };
    return { kind: 'unknown', sessions: sessions.size };
  }
}
