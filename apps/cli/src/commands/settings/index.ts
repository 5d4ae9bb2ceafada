import type { Command } from 'commander';
import { remoteSession, systemBrowserOpener, type BrowserOpener } from '@blitz/core';
import { BlitzClient } from '@blitz/client';
import type { CliContext } from '../../context.js';
import { startDaemon } from '../../daemon-connection.js';

/**
 * `blitz settings` opens the daemon's settings page (MCP-46) in the default browser by a
 * one-time address: the daemon trades its code for a session cookie, so the bearer token
 * never appears in a URL. Where no browser opens, the address is printed instead.
 */
export function registerSettings(program: Command, ctx: CliContext, openBrowser: BrowserOpener = systemBrowserOpener()): void {
  program
    .command('settings')
    .description('open the settings page (servers, their state and tools) in your browser; starts the daemon first')
    .option('--print', 'print the one-time address instead of opening a browser')
    .action(async (opts: { print?: boolean }) => {
      const { state, started } = await startDaemon(ctx);
      if (started) ctx.err(`Started the Blitz daemon (pid ${state.pid}).`);
      const { url } = await new BlitzClient(state).settingsCode();
      const remote = remoteSession(ctx.env);
      if (!opts.print && remote === undefined && (await openBrowser(url))) {
        ctx.out('Opened the Blitz settings in your browser.');
        return;
      }
      const why = opts.print
        ? ''
        : remote === 'ssh'
          ? ' (over SSH no browser is opened here)'
          : remote === 'no-display'
            ? ' (no display to open a browser on)'
            : ' (no browser could be started)';
      ctx.out(`Open the Blitz settings at this address within a minute; it works once${why}:`);
      (ctx.outCredential ?? ctx.out)(url);
    });
}
