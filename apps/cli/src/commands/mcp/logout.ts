import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { openSignInStore, tellDaemon } from '../../sign-in-store.js';

export function registerLogout(mcp: Command, ctx: CliContext): void {
  mcp
    .command('logout')
    .description("forget an MCP server's OAuth sign-in (a running daemon stops using its tokens at once)")
    .argument('<name>')
    .action(async (name: string) => {
      const store = await openSignInStore(ctx);
      const had = await store.forget(name);
      await tellDaemon(ctx, name);
      ctx.out(
        had ? `Signed out of MCP server ${name}: its tokens are forgotten.` : `MCP server ${name} was not signed in; nothing to forget.`,
      );
    });
}
