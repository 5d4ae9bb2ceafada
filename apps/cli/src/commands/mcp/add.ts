import type { Command } from 'commander';
import { SettingsEditor } from '@blitz/core';
import type { CliContext } from '../../context.js';
import { buildAddEntry, type AddOptions } from './add-entry.js';
import { addWarnings } from './add-warnings.js';

export function registerAdd(mcp: Command, ctx: CliContext): void {
  mcp
    .command('add')
    .description('add an MCP server: a command (stdio) or a URL (streamable HTTP)')
    .usage('[options] <name> <command> [args...] | <name> <url> | <name> -- <command> [args...]')
    .argument('<name>', 'letters, digits, ".", "-" and "_"')
    .argument('<command-or-url...>', 'the command and its arguments, or the URL; after --, arguments may start with -')
    .option('--env <KEY=value>', 'environment variable for the server (repeatable)', collect, [])
    .option('--header <"Name: value">', 'HTTP header for the server (repeatable)', collect, [])
    .option('--prefix <prefix>', 'expose tool create_issue as <prefix>__create_issue')
    .option('--agents <a,b>', 'agents offered its tools (default: main only; "*" for every agent)')
    .option('--timeout <seconds>', 'timeout for one tool call (default 300)')
    .option('--auto-approve', 'run its tools without asking')
    .option('--no-sandbox', 'run a command server outside the OS sandbox')
    .option('--sandbox-write <path>', 'a path the sandboxed server may write (repeatable)', collect, [])
    .option('--roots <path>', 'a root offered to the server instead of the workspace (repeatable)', collect, [])
    .option('--no-roots', 'offer the server no roots, so it keeps the folders given in its arguments')
    .option('--share', 'one copy serves every workspace instead of one per workspace')
    .option('--disabled', 'add it turned off')
    // `blitz mcp add fs npx -y pkg`: options Blitz does not know belong to the server's command.
    .allowUnknownOption()
    .action(async (name: string, target: string[], opts: AddOptions) => {
      const entry = buildAddEntry(name, target, opts);
      await new SettingsEditor(ctx.paths.settings).add(entry);
      const what = entry.url === undefined ? 'command' : 'URL';
      ctx.out(`Added MCP server "${name}" (${what}) to ${ctx.paths.settings}.`);
      for (const warning of await addWarnings(ctx, name)) ctx.err(`warning: ${warning}. It was saved anyway; blitz doctor checks again.`);
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
