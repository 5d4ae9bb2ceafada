import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { DAEMON_ENTRY } from '@blitz/daemon/entry';
import { readDaemonState, type DaemonState } from '@blitz/client';
import { isProcessAlive } from '@blitz/process';
import { CliError, type CliContext } from '../../context.js';
import { connectToDaemon, startDaemon, stoppedOnPurpose } from '../../daemon-connection.js';
import { daemonVersionNote } from '../../daemon-version.js';
import { VERSION } from '../../version.js';
import { blitzCommand } from '../../blitz-path.js';

export function registerDaemon(program: Command, ctx: CliContext): void {
  const daemon = program
    .command('daemon')
    .description('run the Blitz daemon in the foreground (start|stop|status: in the background)')
    .action(async () => {
      // The daemon app's own entry point, run in this process: it sets the exit code. It
      // writes this blitz into the clients the settings page connects (BLITZ_CLI_BIN).
      process.env.BLITZ_CLI_BIN = blitzCommand().bin;
      await import(pathToFileURL(DAEMON_ENTRY).href);
    });

  daemon
    .command('start')
    .description('start the daemon in the background (output in $BLITZ_HOME/logs)')
    .action(async () => {
      const { state, started } = await startDaemon(ctx);
      ctx.out(
        `${started ? 'Started' : 'Already running:'} Blitz daemon (pid ${state.pid}, version ${state.version}) on http://127.0.0.1:${state.port}`,
      );
      const note = started ? undefined : daemonVersionNote(state.version, VERSION);
      if (note) ctx.out(`Note: ${note}`);
    });

  daemon
    .command('restart')
    .description("stop the running daemon (if any) and start this blitz's own, e.g. after an upgrade")
    .action(async () => {
      const running = connectToDaemon(ctx);
      if (running) {
        await stopDaemon(running);
        ctx.out(`Stopped the Blitz daemon (pid ${running.state.pid}, version ${running.state.version}).`);
      }
      const { state } = await startDaemon(ctx);
      ctx.out(`Started Blitz daemon (pid ${state.pid}, version ${state.version}) on http://127.0.0.1:${state.port}`);
    });

  daemon
    .command('stop')
    .description('stop the daemon; every MCP server it runs is stopped')
    .action(async () => {
      // Stopped means stopped: a connected client's next request does not start it again (issue 26.8).
      fs.mkdirSync(ctx.paths.stateDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(ctx.paths.daemonStopped, `${new Date().toISOString()}\n`, { mode: 0o600 });
      const running = connectToDaemon(ctx);
      const until =
        'It stays stopped until blitz daemon start: clients that connect through blitz connect are told so, and not served, until then.';
      if (!running) {
        ctx.out(`The Blitz daemon is not running. ${until}`);
        return;
      }
      await stopDaemon(running);
      ctx.out(`Stopped the Blitz daemon (pid ${running.state.pid}). ${until}`);
    });

  daemon
    .command('status')
    .description('say whether the daemon runs, and where')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const state = readDaemonState(ctx.paths.home);
      if (!state) {
        const stopped = stoppedOnPurpose(ctx);
        if (opts.json) ctx.out(JSON.stringify({ running: false, ...(stopped ? { stopped: true } : {}) }));
        else
          ctx.out(
            `The Blitz daemon is not running${stopped ? ' (stopped with blitz daemon stop: clients do not start it)' : ''}. Start it: blitz daemon start`,
          );
        process.exitCode = 3;
        return;
      }
      const status = await connectToDaemon(ctx)!.client.status(Number.MAX_SAFE_INTEGER);
      if (opts.json) {
        ctx.out(
          JSON.stringify(
            {
              running: true,
              pid: state.pid,
              port: state.port,
              version: status.version,
              workspaces: status.workspaces,
              problems: status.problems,
            },
            null,
            2,
          ),
        );
        return;
      }
      ctx.out(
        `The Blitz daemon is running (pid ${state.pid}, version ${status.version}) on http://127.0.0.1:${state.port}, ${status.workspaces} open workspace${status.workspaces === 1 ? '' : 's'}.`,
      );
      for (const problem of status.problems) ctx.out(`settings problem: ${problem}`);
    });
}

/** Asks the daemon to stop and waits until its process is gone (its servers stopped with it). */
async function stopDaemon(running: { client: { shutdown(): Promise<unknown> }; state: DaemonState }): Promise<void> {
  await running.client.shutdown();
  // Real time, no Clock: it waits for a real process to exit, as its tests do (docs/architecture.md "Time").
  const deadline = Date.now() + 20_000;
  while (isProcessAlive(running.state.pid)) {
    if (Date.now() > deadline) throw new CliError(`the daemon (pid ${running.state.pid}) did not stop within 20s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
