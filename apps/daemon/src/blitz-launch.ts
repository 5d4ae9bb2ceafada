import fs from 'node:fs';
import { findOnPath } from '@blitz/core';
import type { BlitzLaunch } from '@blitz/clients';

/** The env the CLI sets when it starts a daemon: the real path of its `blitz` launcher (apps/cli's `bin`). */
export const CLI_BIN_ENV = 'BLITZ_CLI_BIN';

export interface DaemonLaunches {
  /** What the page's snippets show: `blitz connect` when `blitz` is on PATH, else full paths. */
  snippet: { command: string; args: string[]; onPath: boolean };
  /**
   * What connecting a client from the page writes, as `blitz clients connect` does: this Node
   * and the CLI's launcher by full paths, so a client without the shell's PATH finds both;
   * undefined when this daemon was not started by a `blitz` it can name.
   */
  connect: BlitzLaunch | undefined;
}

/** How a client's entry starts this Blitz, from the daemon's env (`connectEnv`: `BLITZ_HOME` when not the default). */
export function daemonLaunches(env: Readonly<Record<string, string | undefined>>, connectEnv: Record<string, string>): DaemonLaunches {
  const bin = env[CLI_BIN_ENV];
  const known = bin !== undefined && bin !== '' && fs.existsSync(bin) ? bin : undefined;
  const onPath = findOnPath('blitz', env.PATH ?? '', env.PATHEXT ? { pathext: env.PATHEXT } : {}) !== undefined;
  const full = known === undefined ? undefined : { command: process.execPath, args: [known, 'connect'] };
  const snippet = onPath || full === undefined ? { command: 'blitz', args: ['connect'], onPath } : { ...full, onPath };
  return { snippet, connect: full === undefined ? undefined : { ...full, env: connectEnv } };
}
