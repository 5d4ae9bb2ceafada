import path from 'node:path';
import type { Command } from 'commander';
import { CliError, type CliContext } from '../../context.js';
import { connectToDaemon } from '../../daemon-connection.js';

export function registerRestart(mcp: Command, ctx: CliContext): void {
  mcp
    .command('restart')
    .description('restart an MCP server in a workspace of the running daemon (it starts afresh at the next listing)')
    .argument('<name>')
    .option('--workspace <dir>', 'the workspace (default: the current directory)')
    .action(async (name: string, opts: { workspace?: string }) => {
      const daemon = connectToDaemon(ctx);
      if (!daemon) throw new CliError('the Blitz daemon is not running; start it: blitz daemon start');
      const root = path.resolve(ctx.cwd, opts.workspace ?? '.');
      const workspace = await daemon.client.openWorkspace(root);
      const server = await daemon.client.restartServer(workspace.id, name);
      ctx.out(`Restarted MCP server "${name}" in ${workspace.root} (now ${server.state}).`);
    });
}
