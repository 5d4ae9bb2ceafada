import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * Who made a call: the hub's session with the client that asked, and the client's request id
 * there. A server's own requests during the call (elicitation, sampling: MCP-37) are put to
 * this session, on the stream of that request.
 */
export interface Caller {
  readonly session: Server;
  readonly requestId: RequestId;
  /**
   * The call waits for its client's retry with the answers to what it was asked (a 2026-07-28
   * client's `input_required`): its server asks nothing new for it until they come, so a new
   * request of the server is not this call's.
   */
  readonly waiting?: () => boolean;
}

/** Whose a server's own request is, as far as Blitz can tell. */
export type RequestOwner =
  /** The call it belongs to is known (its stream said so), or it is the only session calling. */
  | { kind: 'caller'; caller: Caller }
  /** No call of a caller is in flight: there is no one to ask. */
  | { kind: 'none' }
  /** Calls from several sessions are in flight and the transport cannot say whose it is. */
  | { kind: 'unknown'; sessions: number };
