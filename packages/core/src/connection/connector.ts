import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../config/server-config.js';
import type { Era, EraVerdict } from '../eras/modern-server-transport.js';
import type { Link } from './link.js';

export interface ConnectOptions {
  /** The workspace directory: a stdio server's default cwd, and what the sandbox lets it write. */
  workspace: string;
  /** Spawn and initialize must finish within this many ms; the error names the phase. */
  deadlineMs: number;
  capabilities: ClientCapabilities;
  /** Registers handlers on the client before the handshake, so no early message is missed. */
  prepareClient(client: Client): void;
  signal?: AbortSignal;
  /**
   * A failed start's process, still being stopped (close stdin, wait, signal): the start fails
   * at once and its owner waits for this before it is done. Without it the start waits itself.
   */
  stopping?(done: Promise<void>): void;
  /** The era the server was last found to speak: `legacy` skips asking (MCP 2026-07-28's `server/discover`); otherwise it is asked. */
  era?: Era;
  /** Hears the era once the opening exchange settles it. */
  onVerdict?(verdict: EraVerdict): void;
}

/** Opens a `Link` to a server. Production picks stdio or HTTP by transport; tests may pass the SDK's in-memory pair. */
export type Connector = (config: ServerConfig, options: ConnectOptions) => Promise<Link>;
