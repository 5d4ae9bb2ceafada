import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { SessionContext } from './session-context.js';

/** `logging/setLevel`: accepted; notices are sent at every level. */
export function registerLogging(server: Server, _ctx: SessionContext): void {
  server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
}
