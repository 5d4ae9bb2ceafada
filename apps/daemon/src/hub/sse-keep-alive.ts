import type { ServerResponse } from 'node:http';
import type { Clock, Timer } from '@blitz/clock';

/**
 * How often a stream that only listens gets a comment: well under the 300 s Node's own fetch
 * waits for a body's next bytes (undici's `bodyTimeout`) and the idle timeouts of common
 * proxies, so a quiet hub does not look like a dead one.
 */
export const KEEP_ALIVE_MS = 25_000;

/** An SSE comment: a client's event parser skips it. */
export const KEEP_ALIVE_COMMENT = ': keep-alive\n\n';

/** Writes the keep-alive comment on an open event stream every `KEEP_ALIVE_MS` until it closes. */
export function keepAlive(res: ServerResponse, clock: Clock): void {
  let timer: Timer;
  const tick = () => {
    if (res.writableEnded || res.destroyed) return;
    res.write(KEEP_ALIVE_COMMENT);
    timer = clock.setTimeout(tick, KEEP_ALIVE_MS);
  };
  timer = clock.setTimeout(tick, KEEP_ALIVE_MS);
  res.once('close', () => timer.cancel());
}
