import type { Command } from 'commander';
import { autostartControl, processAutostartSystem } from '@blitz/autostart';
import { displayProblem, runTray } from '@blitz/tray';
import { CliError, type CliContext } from '../../context.js';
import { startDaemon } from '../../daemon-connection.js';
import { cliLaunchSpec } from '../autostart/cli-launch.js';

/**
 * `blitz tray` runs the tray in this process, as `blitz daemon` runs the daemon: its exit
 * code and signals are the command's own, and there is no second process to reap. The
 * daemon, though, is started detached, so it outlives the tray.
 */
export function registerTray(program: Command, ctx: CliContext): void {
  program
    .command('tray')
    .description('show the tray icon: your MCP servers to switch on and off, notifications, start at login (starts the daemon first)')
    .action(async () => {
      // Before the daemon starts: without a desktop, say what to do instead and stop.
      const problem = displayProblem(ctx.env, process.platform);
      if (problem) throw new CliError(problem);
      try {
        const { state, started } = await startDaemon(ctx);
        if (started) ctx.err(`Started the Blitz daemon (pid ${state.pid}).`);
      } catch (err) {
        // The tray still helps: it says the daemon is down and offers "Start daemon".
        ctx.err(`blitz: ${(err as Error).message}`);
      }
      process.exitCode = await runTray({
        home: ctx.paths.home,
        env: ctx.env,
        startDaemon: async () => void (await startDaemon(ctx)),
        autostart: autostartControl(processAutostartSystem(ctx.env), cliLaunchSpec(ctx)),
        log: (message) => ctx.err(`blitz tray: ${message}`),
      });
    });
}
