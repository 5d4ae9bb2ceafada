import type { Command } from 'commander';
import { SettingsEditor } from '@blitz/core';
import type { CliContext } from '../../context.js';
import { buildSetChanges, describeChanges, type SetOptions } from './set-changes.js';

/** `blitz mcp set NAME --prefix P …`: changes settings of a server in place, as `add` would have written them. */
export function registerSet(mcp: Command, ctx: CliContext): void {
  mcp
    .command('set')
    .description("change an MCP server's settings in place (comments kept); --unset FIELD goes back to the default")
    .argument('<name>', 'the MCP server')
    .option('--prefix <prefix>', 'expose tool create_issue as <prefix>__create_issue')
    .option('--agents <a,b>', 'agents offered its tools ("*" for every agent)')
    .option('--tools <x,y>', 'offer only these of its tools (original names)')
    .option('--timeout <seconds>', 'timeout for one tool call')
    .option('--startup-timeout <seconds>', 'how long it may take to start')
    .option('--idle-timeout <seconds>', 'stop it after this long unused, to save memory (0: never; unset: [hub] idle_timeout_seconds)')
    .option('--roots <path>', 'a root offered to the server instead of the workspace (repeatable)', collect)
    .option('--no-roots', 'offer the server no roots, so it keeps the folders given in its arguments')
    .option('--sandbox', 'run a command server in the OS sandbox (the default)')
    .option('--no-sandbox', 'run a command server outside the OS sandbox')
    .option('--sandbox-write <path>', 'a path the sandboxed server may write (repeatable; replaces the list)', collect)
    .option('--share', 'one copy serves every workspace')
    .option('--no-share', 'one copy per workspace (the default)')
    .option('--sampling', "forward the server's sampling requests to the calling client")
    .option('--no-sampling', 'refuse its sampling requests (the default)')
    .option('--exposure <how>', 'direct, deferred or hidden')
    .option(
      '--unset <field>',
      'remove a setting, back to its default: prefix, agents, tools, timeout, startup-timeout, idle-timeout, roots, sandbox, sandbox-write, share, sampling, exposure (repeatable)',
      collect,
    )
    .action(async (name: string, opts: SetOptions) => {
      const changes = buildSetChanges(opts);
      await new SettingsEditor(ctx.paths.settings).setFields(name, changes);
      ctx.out(`MCP server "${name}": ${describeChanges(changes)} in ${ctx.paths.settings}.`);
    });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
