import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '@blitz/clock';
import type { BreakerNotice } from '../breaker/breaker.js';
import type { ServerConfig } from '../config/server-config.js';
import type { RequestOwner } from './caller.js';
import type { CallsInFlight } from './calls-in-flight.js';
import type { Connector } from './connector.js';
import type { ServerStatus } from './server-status.js';

export type ConnectionEvent =
  /**
   * The one event a change emits (of the connection's state, its breaker's or its warnings):
   * the new status, and whether the tools it offers may have changed with it (a new
   * listing, a crash, a stop, the breaker hiding or offering them again).
   */
  | { type: 'status'; status: ServerStatus; toolsChanged: boolean }
  | { type: 'notice'; notice: BreakerNotice }
  | { type: 'failure'; server: string; reason: string }
  /** The server changed its prompts or resources; clients should list them again. */
  | { type: 'listChanged'; server: string; list: 'prompts' | 'resources' };

export interface ConnectionDeps {
  connector: Connector;
  clock: Clock;
  workspace: string;
  onEvent(event: ConnectionEvent): void;
  /**
   * Handlers for the server's own requests (elicitation, sampling, roots), set by the hub;
   * `ownerOf` tells whose call a request (by its id) belongs to.
   */
  prepareClient?(client: Client, server: ServerConfig, ownerOf: (serverRequestId: RequestId) => RequestOwner): void;
  capabilities?: ClientCapabilities;
  /** The server's requests in flight, registered once each (its pool entry's); a new register without. */
  calls?: CallsInFlight;
}
