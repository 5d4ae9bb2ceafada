import { fileURLToPath } from 'node:url';

/** Set by the package bundle (scripts/stage-package.mjs): the daemon's entry, relative to the bundle's files. */
declare const __BLITZ_DAEMON_ENTRY__: string | undefined;

/**
 * The file `blitz daemon start` runs in a detached process (and `blitz daemon` in its own):
 * `main.js` here, or the bundle's own daemon entry. A module of its own, exported as
 * `@blitz/daemon/entry`, so that importing it loads none of the daemon.
 */
export const DAEMON_ENTRY = fileURLToPath(
  new URL(typeof __BLITZ_DAEMON_ENTRY__ === 'string' ? __BLITZ_DAEMON_ENTRY__ : './main.js', import.meta.url),
);
