import type { Command } from 'commander';
import { loadSettings, permissionKey, SettingsEditor, type Settings } from '@blitz/core';
import { CliError, type CliContext } from '../../context.js';

/**
 * `blitz mcp approve NAME [TOOL…]` and `unapprove`: a whole server through its `auto_approve`,
 * single tools through `mcp:<server>:<tool>` patterns in `[permissions] allow`, edited in place.
 */
export function registerApprove(mcp: Command, ctx: CliContext): void {
  mcp
    .command('approve')
    .description('run a server\'s tools without asking: all of them (auto_approve = true), or the tools named ([permissions] allow)')
    .argument('<name>', 'the MCP server')
    .argument('[tools...]', 'original tool names; none: every tool of the server')
    .action(async (name: string, tools: string[]) => {
      const editor = new SettingsEditor(ctx.paths.settings);
      if (tools.length === 0) {
        await editor.setAutoApprove(name, true);
        ctx.out(`MCP server "${name}" is auto-approved: its tools run without asking (auto_approve = true).${denyNote(ctx, name)}`);
        return;
      }
      const patterns = tools.map((tool) => permissionKey(name, tool));
      await editor.editPermissions('allow', { add: patterns });
      ctx.out(`Allowed ${patterns.join(', ')} in [permissions] allow of ${ctx.paths.settings}.${denyNote(ctx, name)}`);
    });

  mcp
    .command('unapprove')
    .description('ask again before running a server\'s tools: all of them (auto_approve off), or the tools named')
    .argument('<name>', 'the MCP server')
    .argument('[tools...]', 'original tool names; none: the whole server')
    .action(async (name: string, tools: string[]) => {
      const editor = new SettingsEditor(ctx.paths.settings);
      if (tools.length === 0) {
        await editor.setAutoApprove(name, false);
        const still = current(ctx).permissions.allow.filter((p) => p.startsWith(`mcp:${name}:`));
        const note = still.length > 0 ? ` Still allowed by [permissions] allow: ${still.join(', ')} (blitz mcp unapprove ${name} TOOL removes one).` : '';
        ctx.out(`MCP server "${name}" is no longer auto-approved: its tools are asked about again.${note}`);
        return;
      }
      const patterns = tools.map((tool) => permissionKey(name, tool));
      const before = current(ctx).permissions.allow;
      const missing = patterns.filter((p) => !before.includes(p));
      if (missing.length === patterns.length) throw new CliError(`${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not in [permissions] allow of ${ctx.paths.settings}; nothing was changed`);
      await editor.editPermissions('allow', { remove: patterns });
      const server = current(ctx).servers.find((s) => s.name === name);
      const notes = [
        missing.length > 0 ? `${missing.join(', ')} ${missing.length > 1 ? 'were' : 'was'} not there.` : '',
        server?.autoApprove ? `The server is still auto_approve (blitz mcp unapprove ${name} turns that off).` : '',
      ].filter(Boolean);
      ctx.out([`Removed ${patterns.filter((p) => !missing.includes(p)).join(', ')} from [permissions] allow.`, ...notes].join(' '));
    });
}

/** Deny and ask rules win over both: say so rather than let the user wonder. */
function denyNote(ctx: CliContext, name: string): string {
  const { deny, ask } = current(ctx).permissions;
  const mine = (p: string) => p.startsWith('mcp:*') || p === `mcp:${name}` || p.startsWith(`mcp:${name}:`);
  const notes = [
    deny.some(mine) ? ` [permissions] deny still refuses what it matches: ${deny.filter(mine).join(', ')}.` : '',
    ask.some(mine) ? ` [permissions] ask still asks about what it matches: ${ask.filter(mine).join(', ')}.` : '',
  ];
  return notes.join('');
}

/** The settings as the edit left them: it validated the file, so its warnings are not repeated. */
function current(ctx: CliContext): Settings {
  return loadSettings(ctx.paths.settings).settings;
}
