import type { Command } from 'commander';
import { SettingsEditor } from '@blitz/core';
import type { CliContext } from '../../context.js';

export function registerToggle(mcp: Command, ctx: CliContext, enabled: boolean): void {
  mcp
    .command(enabled ? 'enable' : 'disable')
    .description(enabled ? 'turn an MCP server on' : 'turn an MCP server off (it stays configured, is never started and offers no tools)')
    .argument('<name>')
    .action(async (name: string) => {
      await new SettingsEditor(ctx.paths.settings).setEnabled(name, enabled);
      ctx.out(`${enabled ? 'Enabled' : 'Disabled'} MCP server "${name}".`);
    });
}
