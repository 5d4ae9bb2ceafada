import { launchSpec, type LaunchSpec } from '@blitz/autostart';
import { blitzCommand } from '../../blitz-path.js';
import type { CliContext } from '../../context.js';

/** This Node, this CLI, and this shell's PATH and BLITZ_HOME, for a login session that has neither. */
export function cliLaunchSpec(ctx: CliContext): LaunchSpec {
  const { node, bin } = blitzCommand();
  return launchSpec({ node, cli: bin, env: ctx.env, logDir: ctx.paths.logs });
}
