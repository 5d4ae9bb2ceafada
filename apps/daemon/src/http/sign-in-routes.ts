import type { ServerConfig } from '@blitz/core';
import type { PageSignIns } from '../page-sign-ins.js';
import type { Router } from './router.js';

/** The settings page's Sign in and Sign out (issue 29.7): `blitz mcp login` and `logout`, run by the daemon. */
export function signInRoutes(router: Router, signIns: PageSignIns, findServer: (name: string) => ServerConfig): Router {
  return router
    .on('GET', '/v1/oauth/:name', async ({ params }) => ({ body: await signIns.status(findServer(params.name!)) }))
    .on('POST', '/v1/oauth/:name/sign-in', async ({ params }) => ({ body: await signIns.start(findServer(params.name!)) }))
    .on('POST', '/v1/oauth/:name/sign-out', async ({ params }) => ({ body: await signIns.signOut(findServer(params.name!)) }));
}
