import { blitzHome } from '@blitz/core';
import type { BlitzLaunch } from '@blitz/clients';
import { blitzArgv } from '../../blitz-path.js';
import type { CliContext } from '../../context.js';

/**
 * How a client starts this Blitz: `blitz connect` by the absolute paths of this Node and of
 * this `blitz` (`blitzArgv`, the one place that knows where the installed package is), so a
 * client without the shell's PATH (Claude Desktop, GUI editors) still finds both.
 * `BLITZ_HOME` goes into the entry's env when it is not the default: some clients (Codex)
 * start servers with a reduced environment.
 */
export function blitzLaunch(ctx: CliContext, platform: NodeJS.Platform = process.platform): BlitzLaunch {
  const [command, ...args] = blitzArgv('connect');
  const { BLITZ_HOME: _set, ...withoutHome } = ctx.env;
  const env: Record<string, string> = ctx.paths.home === blitzHome(withoutHome, platform) ? {} : { BLITZ_HOME: ctx.paths.home };
  return { command: command!, args, env };
}
