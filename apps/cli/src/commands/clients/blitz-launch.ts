import { accessSync, constants, realpathSync } from 'node:fs';
import { blitzHome } from '@blitz/core';
import type { BlitzLaunch } from '@blitz/clients';
import type { CliContext } from '../../context.js';

/**
 * How a client starts this Blitz: `blitz connect` by the absolute path of the running
 * `blitz` (links resolved, so an installed package's bin is found through its PATH link),
 * or `node <script> connect` where the script cannot be run by itself (Windows, no exec bit).
 * `BLITZ_HOME` goes into the entry's env when it is not the default: some clients (Codex)
 * start servers with a reduced environment.
 */
export function blitzLaunch(ctx: CliContext, script: string | undefined = process.argv[1], platform: NodeJS.Platform = process.platform): BlitzLaunch {
  if (script === undefined) throw new Error('cannot tell where the running blitz is (no script path)');
  const real = realpathSync(script);
  const { BLITZ_HOME: _set, ...withoutHome } = ctx.env;
  const env: Record<string, string> = ctx.paths.home === blitzHome(withoutHome, platform) ? {} : { BLITZ_HOME: ctx.paths.home };
  return runnable(real, platform) ? { command: real, args: ['connect'], env } : { command: process.execPath, args: [real, 'connect'], env };
}

function runnable(file: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32') return false;
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
