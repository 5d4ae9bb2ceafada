import type { Command } from 'commander';
import { describeTransport } from '@blitz/core';
import type { GlobalServerStatus } from '@blitz/client';
import type { CliContext } from '../../context.js';
import { connectToDaemon } from '../../daemon-connection.js';
import { loadSettingsOrFail } from '../../load.js';
import { renderTable } from '../../output/table.js';

export function registerList(mcp: Command, ctx: CliContext): void {
  mcp
    .command('list')
    .description('list the configured MCP servers')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const settings = loadSettingsOrFail(ctx);
      const live = await liveStates(ctx);
      const rows = settings.servers.map((s) => {
        const state = live?.get(s.name);
        return {
          name: s.name,
          transport: s.transport.kind,
          target: describeTransport(s),
          enabled: !s.disabled,
          ...(state ? { state: state.state, ...(state.error ? { error: state.error } : {}) } : {}),
        };
      });
      if (opts.json) {
        ctx.out(JSON.stringify(rows, null, 2));
        return;
      }
      if (rows.length === 0) {
        ctx.out(`No MCP servers configured in ${ctx.paths.settings}.\nAdd one: blitz mcp add <name> <command> [args...]  or  blitz mcp add <name> <url>`);
        return;
      }
      const status = (r: (typeof rows)[number]) => {
        if (!r.enabled) return 'disabled';
        if (!r.state) return 'enabled';
        return r.error ? `${stateText(r.state)}: ${r.error}` : stateText(r.state);
      };
      ctx.out(renderTable(['NAME', 'TRANSPORT', 'COMMAND OR URL', 'STATUS'], rows.map((r) => [r.name, r.transport, r.target, status(r)])));
      if (!live) ctx.out('(the daemon is not running: showing settings only)');
    });
}

/** Each global server's live state, when a daemon runs. */
async function liveStates(ctx: CliContext): Promise<Map<string, GlobalServerStatus> | undefined> {
  const daemon = connectToDaemon(ctx);
  if (!daemon) return undefined;
  try {
    const status = await daemon.client.status(Number.MAX_SAFE_INTEGER);
    return new Map(status.servers.map((s) => [s.name, s]));
  } catch {
    return undefined;
  }
}

function stateText(state: GlobalServerStatus['state']): string {
  return state === 'idle' ? 'enabled (not started)' : state === 'needsSignIn' ? 'needs sign-in' : state;
}
