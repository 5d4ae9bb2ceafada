import { BlitzError } from '@blitz/core';
import type { LatestCalls } from '@blitz/client';
import type { RecentCalls } from '../audit/recent-calls.js';
import type { Router } from './router.js';

/** The most `?limit=` may ask for: what is kept per server. */
const MAX_LIMIT = 50;

/** The latest calls of a server from the audit log (issue 31), for its page: `?server=NAME[&limit=N]`. */
export function auditRoutes(router: Router, recent: RecentCalls): Router {
  return router.on('GET', '/v1/audit/calls', ({ query }) => {
    const server = query.get('server');
    if (server === null || server === '')
      throw new BlitzError('INVALID_ARGUMENT', 'server is required: /v1/audit/calls?server=NAME', { problems: ['server: is required'] });
    const limit = query.get('limit') ?? '20';
    if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_LIMIT)
      throw new BlitzError('INVALID_ARGUMENT', `limit must be a whole number from 1 to ${MAX_LIMIT}, not ${JSON.stringify(limit)}`);
    const answer: LatestCalls = { server, calls: recent.latest(server, Number(limit)) };
    return { body: answer };
  });
}
