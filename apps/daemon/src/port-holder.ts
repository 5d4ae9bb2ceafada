import http from 'node:http';
import { BlitzError, type BlitzPaths } from '@blitz/core';
import { systemClock, type Clock } from '@blitz/clock';
import type { DaemonIdentity } from './http/control-api.js';

/** How long, in all, to wait for whoever holds the port to say who it is. */
const ASK_TIMEOUT_MS = 2_000;

/**
 * Asks the process holding `port` whether it is a Blitz daemon (`GET /v1/health`, no token needed).
 * Bounded in all by `timeoutMs` on `clock`: a holder that streams its answer (an event stream,
 * a byte at a time) must not hold the daemon's start for ever.
 */
export function askPortHolder(port: number, opts: { timeoutMs?: number; clock?: Clock } = {}): Promise<DaemonIdentity | undefined> {
  const clock = opts.clock ?? systemClock;
  return new Promise((resolve) => {
    const deadline = clock.setTimeout(() => req.destroy(), opts.timeoutMs ?? ASK_TIMEOUT_MS);
    const settle = (identity: DaemonIdentity | undefined) => {
      deadline.cancel();
      resolve(identity);
    };
    const req = http.get({ host: '127.0.0.1', port, path: '/v1/health', headers: { host: `127.0.0.1:${port}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > 64 * 1024) req.destroy();
      });
      res.on('end', () => settle(identityOf(body)));
      res.on('error', () => settle(undefined));
      // Destroyed mid-answer (the deadline, or too much said): no 'end' comes.
      res.on('close', () => settle(undefined));
    });
    req.on('error', () => settle(undefined));
  });
}

function identityOf(body: string): DaemonIdentity | undefined {
  try {
    const v = JSON.parse(body) as Partial<DaemonIdentity>;
    return v.service === 'blitz' && typeof v.pid === 'number' && typeof v.home === 'string'
      ? { service: 'blitz', pid: v.pid, home: v.home, version: String(v.version ?? '') }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The expected failure when the port is taken: by another Blitz daemon (whose home we name), or by anything else. */
export function portInUse(port: number, paths: Pick<BlitzPaths, 'home' | 'settings'>, holder: DaemonIdentity | undefined): BlitzError {
  const setPort = `set [daemon] port in ${paths.settings} (0 picks a free one)`;
  if (!holder) return new BlitzError('FAILED_PRECONDITION', `port ${port} on 127.0.0.1 is in use; ${setPort}`, { reason: 'PORT_IN_USE' });
  return new BlitzError(
    'FAILED_PRECONDITION',
    `port ${port} on 127.0.0.1 is held by another Blitz daemon (pid ${holder.pid}, home ${holder.home}), not this one (home ${paths.home}). ` +
      `To use that daemon, set BLITZ_HOME=${holder.home} where this command runs — a client that starts servers with a reduced environment, such as Codex, needs it in the entry's env; ` +
      `to run a second daemon beside it, ${setPort}`,
    { reason: 'PORT_IN_USE' },
  );
}
