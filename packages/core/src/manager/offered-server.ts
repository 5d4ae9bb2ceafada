import type { CatalogEntry } from '../catalog/build-catalog.js';
import type { ServerConfig } from '../config/server-config.js';
import type { ServerConnection } from '../connection/server-connection.js';

/** A server an agent may use, found by name once: its config and its connection. */
export interface OfferedServer {
  config: ServerConfig;
  connection: ServerConnection;
}

/** A tool call resolved once (MCP-21): its catalog entry, and its server's config and connection. */
export interface ResolvedTool extends OfferedServer {
  entry: CatalogEntry;
  /** The tool is in review and offered (`[hub] pin_review = "ask"`): its call is asked whatever the rules say. */
  inReview?: boolean;
}
