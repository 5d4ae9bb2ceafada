import type { Command } from 'commander';
import { SettingsEditor } from '@blitz/core';
import type { CliContext } from '../../context.js';

export function registerRemove(mcp: Command, ctx: CliContext): void {
  mcp
    .command('remove')
    .alias('rm')
    .description('remove an MCP server from settings.toml')
    .argument('<name>')
    .action(async (name: string) => {
      await new SettingsEditor(ctx.paths.settings).remove(name);
      ctx.out(`Removed MCP server "${name}" from ${ctx.paths.settings}.`);
    });
}
