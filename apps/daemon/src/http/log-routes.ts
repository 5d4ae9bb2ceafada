import { BlitzError } from '@blitz/core';
import type { ServerLogBook } from '../log/server-log-book.js';
import type { Router } from './router.js';

/** A server's log lines for the settings page's live view (issue 29.9): `?after=N` gives only the newer ones. */
export function logRoutes(router: Router, book: ServerLogBook): Router {
  return router.on('GET', '/v1/logs/:name', ({ params, query }) => {
    const after = query.get('after');
    if (after !== null && !/^\d+$/.test(after))
      throw new BlitzError('INVALID_ARGUMENT', `after must be a line number (a whole number), not ${JSON.stringify(after)}`);
    return { body: book.read(params.name!, after === null ? 0 : Number(after)) };
  });
}
