import { blitzHome, isBlitzError } from '@blitz/core';
import { Daemon } from './daemon.js';
import { AlreadyRunning } from './instance-lock.js';

/** Everything must be gone this long after SIGTERM, stuck servers killed or not. */
const STOP_DEADLINE_MS = 15_000;

/**
 * Runs the daemon in this process until SIGTERM or SIGINT (or `POST /v1/shutdown`).
 * Returns the exit code: 0 after a clean stop, 1 when another daemon runs for this home.
 */
export async function runDaemon(opts: { version: string; port?: number; mirrorLog?: boolean; fastLanes?: boolean }): Promise<number> {
  const home = blitzHome(process.env);
  // Heard from the start: the state file is written inside Daemon.start, and whoever reads it
  // (a test, the CLI) may send SIGTERM before start returns — unheard, it killed the daemon
  // by the signal's default (no exit code, the socket and state file left behind).
  let signalled: string | undefined;
  let stop = (signal: string) => void (signalled ??= signal);
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  let daemon: Daemon;
  try {
    daemon = await Daemon.start({
      home,
      version: opts.version,
      mirrorLog: opts.mirrorLog ?? true,
      ...(opts.fastLanes === false ? { fastLanes: false } : {}),
      ...(opts.port === undefined ? {} : { port: opts.port }),
    });
  } catch (err) {
    if (err instanceof AlreadyRunning) {
      process.stderr.write(`blitz: ${err.message}; its log is in ${home}/logs\n`);
      return 1;
    }
    // Expected failures (the port is taken) are said in a line, never as a stack trace.
    if (isBlitzError(err, 'FAILED_PRECONDITION')) {
      process.stderr.write(`blitz: the daemon cannot start: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  process.stderr.write(`Blitz daemon listening on ${daemon.url} (home ${home}, pid ${process.pid})\n`);
  stop = (signal: string) => {
    daemon.log.info('signal received', { signal });
    const deadline = setTimeout(() => process.exit(1), STOP_DEADLINE_MS);
    deadline.unref();
    void daemon.stop();
  };
  if (signalled) stop(signalled);
  await daemon.stopped;
  return 0;
}
