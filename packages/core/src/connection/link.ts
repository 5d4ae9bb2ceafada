import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { BlitzError } from '../errors/blitz-error.js';
import type { Era } from '../eras/modern-server-transport.js';
import type { DirectCallOptions } from '../fast-lane/direct-tool-calls.js';

/**
 * One live, initialized connection to a server: it exists only after the handshake
 * (STYLE.md rule 4). Stdio and HTTP connectors both produce one.
 */
export interface Link {
  readonly client: Client;
  /** The revision spoken to the server: 2026-07-28 (`modern`, through ModernServerTransport) or 2025 (`legacy`, the default). */
  readonly era?: Era;
  /** Settles once, when the link dies by itself (process exit, transport closed) — not on `close()`. */
  readonly lost: Promise<BlitzError>;
  /** Ends the link: the stdio close sequence, or the HTTP session DELETE. Idempotent. */
  close(): Promise<void>;
  /** The server process, for stdio links. */
  readonly pid?: number;
  /** The last lines of the server's stderr, for stdio links. */
  stderrTail?(lines?: number): string;
  /**
   * The `relatedRequestId` of the request on whose stream the server sent this request of its
   * own, when the transport can tell (HTTP: a POST's response stream); undefined otherwise.
   */
  relatedTo?(serverRequestId: RequestId): RequestId | undefined;
  /**
   * `tools/call` past the SDK client's request machinery (stdio links: fast-lane/direct-tool-calls.ts),
   * for a tool `DirectToolCalls.takes`; the client's own `callTool` otherwise.
   */
  callTool?(name: string, args: Record<string, unknown>, opts: DirectCallOptions): Promise<CallToolResult>;
  /** One line explaining an error the server reported, when Blitz knows why (the sandbox kept a path read-only). */
  explain?(text: string): string | undefined;
}
