import { fileURLToPath } from 'node:url';
import { launchSpec, type LaunchSpec } from '@blitz/tray';
import type { CliContext } from '../../context.js';

/** The CLI's launcher: what start-at-login entries run, by absolute path. */
export const CLI_BIN = fileURLToPath(new URL('../../../bin/blitz.js', import.meta.url));

/** This Node, this CLI, and this shell's PATH and BLITZ_HOME, for a login session that has neither. */
export function cliLaunchSpec(ctx: CliContext): LaunchSpec {
  return launchSpec({ node: process.execPath, cli: CLI_BIN, env: ctx.env, logDir: ctx.paths.logs });
}
