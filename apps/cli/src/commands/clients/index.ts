import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { connectClients, disconnectClients } from './connect.js';
import { importServers } from './import.js';
import { listClients } from './list.js';

const CLIENT_HELP = 'claude-code, claude-desktop, cursor, vscode, windsurf, codex, gemini, zed, opencode';

export function registerClients(program: Command, ctx: CliContext): void {
  // The list's --json and --project are also read by the subcommands (commander gives them to the parent).
  const clients = program
    .command('clients')
    .description(`other MCP clients' config files: list them, import their servers, point them at Blitz (${CLIENT_HELP})`)
    .option('--json', 'print JSON')
    .option('--project <dir>', "list a project's client files instead of the user's")
    .action(async (opts: { json?: boolean; project?: string }) => listClients(ctx, opts));

  clients
    .command('import')
    .description("copy the clients' MCP servers into settings.toml (comments kept); the same server in several clients is imported once")
    .argument('[client...]', `clients to import from (default: every client found): ${CLIENT_HELP}`)
    .option(
      '--project <dir>',
      "import the project's client files (.cursor/mcp.json, .vscode/mcp.json, …) into its .mcp.json; trust it after with blitz trust",
    )
    .option('--dry-run', 'print what would be imported, change nothing')
    .option('--json', 'print JSON')
    .action(async (ids: string[], _opts: object, command: Command) => importServers(ctx, ids, command.optsWithGlobals()));

  clients
    .command('connect')
    .description('point clients at Blitz: add a blitz entry (blitz connect) and take out the servers Blitz now runs')
    .argument('[client...]', CLIENT_HELP)
    .option('--all', 'every client found on this machine')
    .option('--dry-run', 'print a diff of every file that would change, change nothing')
    .option('--json', 'print JSON')
    .action(async (ids: string[], _opts: object, command: Command) => connectClients(ctx, ids, command.optsWithGlobals()));

  clients
    .command('disconnect')
    .description('undo connect: each file back to what connect found (byte for byte when nothing else changed it)')
    .argument('[client...]', `clients to disconnect (default: every connected client): ${CLIENT_HELP}`)
    .option('--all', 'every connected client (the same as naming none)')
    .option('--json', 'print JSON')
    .action(async (ids: string[], _opts: object, command: Command) => disconnectClients(ctx, ids, command.optsWithGlobals()));
}
