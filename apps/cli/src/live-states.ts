import type { GlobalServerStatus } from '@blitz/client';
import type { CliContext } from './context.js';
import { connectToDaemon } from './daemon-connection.js';

/** Each global server's live state, when a daemon runs. */
export async function liveStates(ctx: CliContext): Promise<Map<string, GlobalServerStatus> | undefined> {
  const daemon = connectToDaemon(ctx);
  if (!daemon) return undefined;
  try {
    const status = await daemon.client.status(Number.MAX_SAFE_INTEGER);
    return new Map(status.servers.map((s) => [s.name, s]));
  } catch {
    return undefined;
  }
}
