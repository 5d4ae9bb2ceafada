import type { Command } from 'commander';
import { describeTransport } from '@blitz/core';
import type { CliContext } from '../../context.js';
import { loadSettingsOrFail } from '../../load.js';
import { renderTable } from '../../output/table.js';

export function registerList(mcp: Command, ctx: CliContext): void {
  mcp
    .command('list')
    .description('list the configured MCP servers')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => {
      const settings = loadSettingsOrFail(ctx);
      const rows = settings.servers.map((s) => ({
        name: s.name,
        transport: s.transport.kind,
        target: describeTransport(s),
        enabled: !s.disabled,
      }));
      if (opts.json) {
        ctx.out(JSON.stringify(rows, null, 2));
        return;
      }
      if (rows.length === 0) {
        ctx.out(`No MCP servers configured in ${ctx.paths.settings}.\nAdd one: blitz mcp add <name> <command> [args...]  or  blitz mcp add <name> <url>`);
        return;
      }
      ctx.out(renderTable(['NAME', 'TRANSPORT', 'COMMAND OR URL', 'STATUS'], rows.map((r) => [r.name, r.transport, r.target, r.enabled ? 'enabled' : 'disabled'])));
    });
}
