import type { Command } from 'commander';
import { describeClientSource, resolveServer, signIn, SIGN_IN_TIMEOUT_MS } from '@blitz/core';
import { CliError, type CliContext } from '../../context.js';
import { loadSettingsOrFail } from '../../load.js';
import { openSignInStore, tellDaemon } from '../../sign-in-store.js';

export function registerLogin(mcp: Command, ctx: CliContext): void {
  mcp
    .command('login')
    .description('sign in to an HTTP MCP server with OAuth: opens the browser, keeps the tokens in the OS keychain')
    .argument('<name>')
    .option('--no-browser', 'do not open a browser; only print the address to open')
    .option('--timeout <seconds>', `give up after this many seconds (default ${SIGN_IN_TIMEOUT_MS / 1000})`)
    .action(async (name: string, opts: { browser: boolean; timeout?: string }) => {
      const settings = loadSettingsOrFail(ctx);
      const server = settings.servers.find((s) => s.name === name);
      if (!server) throw new CliError(`no MCP server named "${name}" in ${ctx.paths.settings}`);
      if (server.transport.kind !== 'http') throw new CliError(`MCP server ${name} is a stdio server; only HTTP servers sign in`);
      const timeoutMs = opts.timeout === undefined ? SIGN_IN_TIMEOUT_MS : Number(opts.timeout) * 1000;
      if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
        throw new CliError(`--timeout must be a number of seconds, not ${JSON.stringify(opts.timeout)}`);
      // A disabled server may be signed in to ahead of enabling it: expand it as if enabled.
      const resolved = resolveServer({ ...server, disabled: false }, ctx.env);
      if (resolved.unavailable) throw new CliError(`MCP server ${name} cannot sign in: ${resolved.unavailable}`);

      const store = await openSignInStore(ctx);
      let credentials;
      try {
        credentials = await signIn({
          config: resolved.config,
          store,
          print: (text) => ctx.err(text),
          noBrowser: !opts.browser,
          input: process.stdin,
          env: ctx.env,
          timeoutMs,
          ...(settings.oauth.clientMetadataUrl ? { clientMetadataUrl: settings.oauth.clientMetadataUrl } : {}),
        });
      } finally {
        // Done reading pasted addresses: the terminal must not keep the command alive.
        process.stdin.destroy();
      }
      ctx.out(`Signed in to MCP server ${name}. The sign-in is kept in ${store.describe()}.`);
      ctx.out(`Client: ${describeClientSource(credentials)}.`);
      await tellDaemon(ctx, name);
    });
}
