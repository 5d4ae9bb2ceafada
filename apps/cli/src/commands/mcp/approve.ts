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
    .description("run a server's tools without asking: all of them (auto_approve = true), or the tools named ([permissions] allow)")
    .argument('<name>', 'the MCP server')
    .argument('[tools...]', 'original tool names; none: every tool of the server')
    .action(async (name: string, tools: string[]) => {
      const editor = new SettingsEditor(ctx.paths.settings);
      if (tools.length === 0) {
        await editor.setAutoApprove(name, true);
        ctx.out(`MCP server "${name}" is auto-approved: its tools run without asking (auto_approve = true).${denyNote(ctx, name)}`);
        return;
      }
      const { names, note } = ownToolNames(ctx, name, tools);
      const patterns = names.map((tool) => permissionKey(name, tool));
      await editor.editPermissions('allow', { add: patterns });
      ctx.out(`Allowed ${patterns.join(', ')} in [permissions] allow of ${ctx.paths.settings}.${note}${denyNote(ctx, name)}`);
    });

  mcp
    .command('unapprove')
    .description("ask again before running a server's tools: all of them (auto_approve off), or the tools named")
    .argument('<name>', 'the MCP server')
    .argument('[tools...]', 'original tool names; none: the whole server')
    .action(async (name: string, tools: string[]) => {
      const editor = new SettingsEditor(ctx.paths.settings);
      if (tools.length === 0) {
        await editor.setAutoApprove(name, false);
        const still = current(ctx).permissions.allow.filter((p) => p.startsWith(`mcp:${name}:`));
        const note =
          still.length > 0
            ? ` Still allowed by [permissions] allow: ${still.join(', ')} (blitz mcp unapprove ${name} TOOL removes one).`
            : '';
        ctx.out(`MCP server "${name}" is no longer auto-approved: its tools are asked about again.${note}`);
        return;
      }
      const { names, note } = ownToolNames(ctx, name, tools);
      const patterns = names.map((tool) => permissionKey(name, tool));
      const before = current(ctx).permissions.allow;
      const missing = patterns.filter((p) => !before.includes(p));
      if (missing.length === patterns.length)
        throw new CliError(
          `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not in [permissions] allow of ${ctx.paths.settings}; nothing was changed`,
        );
      await editor.editPermissions('allow', { remove: patterns });
      const server = current(ctx).servers.find((s) => s.name === name);
      const notes = [
        missing.length > 0 ? `${missing.join(', ')} ${missing.length > 1 ? 'were' : 'was'} not there.` : '',
        server?.autoApprove ? `The server is still auto_approve (blitz mcp unapprove ${name} turns that off).` : '',
        note.trim(),
      ].filter(Boolean);
      ctx.out([`Removed ${patterns.filter((p) => !missing.includes(p)).join(', ')} from [permissions] allow.`, ...notes].join(' '));
    });
}

/**
 * Rules name a tool as its server does; a client shows it with the server's `prefix`
 * (`gitlab__list_projects`), and a rule of that name would never match. A name with the
 * server's prefix is taken as the tool's own name, and the note says so. A server not in
 * settings.toml may be a project's (.mcp.json): its rule is written, with a warning.
 */
function ownToolNames(ctx: CliContext, name: string, tools: readonly string[]): { names: string[]; note: string } {
  const server = current(ctx).servers.find((s) => s.name === name);
  if (server === undefined) {
    ctx.err(
      `warning: no MCP server named "${name}" in ${ctx.paths.settings}; the rule is written for a project's server (.mcp.json) of that name, and matches nothing else`,
    );
    return { names: [...tools], note: '' };
  }
  const marker = server.prefix ? `${server.prefix}__` : undefined;
  const taken: string[] = [];
  const names = tools.map((tool) => {
    if (marker === undefined || !tool.startsWith(marker) || tool.length === marker.length) return tool;
    taken.push(`${tool} is ${tool.slice(marker.length)}`);
    return tool.slice(marker.length);
  });
  const note =
    taken.length === 0
      ? ''
      : ` (${taken.join(', ')}: clients see ${name}'s tools with its prefix "${server.prefix}__", rules name them as the server does.)`;
  return { names, note };
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
