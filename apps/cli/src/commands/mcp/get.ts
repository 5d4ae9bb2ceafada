import type { Command } from 'commander';
import { maskServerSecrets, readProjectConfig, serverToEntry } from '@blitz/core';
import { CliError, type CliContext } from '../../context.js';
import { liveStates } from '../../live-states.js';
import { loadSettingsOrFail } from '../../load.js';

export function registerGet(mcp: Command, ctx: CliContext): void {
  mcp
    .command('get')
    .description('show every field of one MCP server (secret values masked)')
    .argument('<name>')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: { json?: boolean }) => {
      const server = loadSettingsOrFail(ctx).servers.find((s) => s.name === name);
      if (!server) throw new CliError(`no MCP server named "${name}" in ${ctx.paths.settings}${inProject(ctx.cwd, name)}`);
      const entry = maskServerSecrets(serverToEntry(server));
      const live = (await liveStates(ctx))?.get(name);
      const view = {
        ...entry,
        transport: server.transport.kind,
        enabled: !server.disabled,
        timeout_seconds: server.timeoutSeconds,
        startup_timeout_seconds: server.startupTimeoutSeconds,
        sandbox: server.sandbox,
        auto_approve: server.autoApprove,
        source: server.source.file,
        // The live state with the whole error, stderr tail and all (mcp list shows one line of it).
        ...(live
          ? {
              state: live.state,
              ...(live.error === undefined ? {} : { error: live.error }),
              ...(live.cause === undefined ? {} : { cause: live.cause }),
              ...(live.remedy === undefined ? {} : { remedy: live.remedy }),
            }
          : {}),
      };
      if (opts.json) {
        ctx.out(JSON.stringify(view, null, 2));
        return;
      }
      const { name: _name, ...fields } = {
        ...view,
        roots:
          server.roots === undefined
            ? server.share
              ? 'your home (a shared server serves every workspace)'
              : 'the workspace'
            : server.roots === false
              ? 'not offered (the server keeps the folders of its arguments)'
              : server.roots,
      };
      const lines = Object.entries(fields).map(
        ([key, value]) => `  ${`${key}:`.padEnd(25)}${show(value).replace(/\n/g, `\n${' '.repeat(27)}`)}`,
      );
      ctx.out([name, ...lines].join('\n'));
    });
}

function show(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => (/\s/.test(String(v)) ? JSON.stringify(v) : String(v))).join(' ');
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
      .join('  ');
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** Where the project of `cwd` defines a server `name`, said after the not-found message; else nothing. */
function inProject(cwd: string, name: string): string {
  const found = readProjectConfig(cwd).servers.find((s) => s.name === name);
  if (found?.source.kind !== 'project') return '';
  return `; "${name}" is a server of the project ${cwd} (${found.source.file}): blitz config show --workspace ${cwd} shows it`;
}
