import path from 'node:path';
import type { Command } from 'commander';
import {
  canonicalProject,
  effectiveServers,
  formatKey,
  formatProblem,
  formatValue,
  KNOWN_CLIENTS,
  maskServerSecrets,
  readProjectConfig,
  serverToEntry,
  shadowedProblems,
  TrustStore,
  withheldProblems,
  type ServerConfig,
} from '@blitz/core';
import type { CliContext } from '../../context.js';
import { loadParsedSettingsOrFail } from '../../load.js';
import { requireFolder } from '../../require-folder.js';

export function registerShow(config: Command, ctx: CliContext): void {
  config
    .command('show')
    .description('show the effective settings: every server with where it comes from, secrets masked')
    .option('--workspace <dir>', "include a project's servers (.mcp.json) as that workspace sees them")
    .option('--json', 'print JSON')
    .action((opts: { workspace?: string; json?: boolean }) => {
      const { settings, serverLine } = loadParsedSettingsOrFail(ctx);
      const asked = opts.workspace === undefined ? undefined : path.resolve(ctx.cwd, opts.workspace);
      const root = asked === undefined ? undefined : requireFolder(asked, (problem) => `the workspace ${asked} ${problem} (--workspace)`);
      const project = root === undefined ? undefined : readProjectConfig(canonicalProject(root));
      const trust = root !== undefined && project!.files.length > 0 ? new TrustStore(ctx.paths.trust).trustOf(project!) : undefined;
      const trusted = trust !== undefined;
      const effective = effectiveServers(
        settings.servers,
        project && { config: project, trusted, ...(trust ? { allowed: trust.allowed } : {}) },
        ctx.env,
      );
      // As the daemon runs them: what the trust did not grant is said, and not shown as set.
      const problems =
        project === undefined
          ? []
          : [
              ...project.problems,
              ...withheldProblems(project, effective.withheld),
              ...(trusted ? shadowedProblems(settings.servers, project, (g) => serverLine(g.name, 'name')) : []),
            ];
      const servers = effective.configured.map((config, i) => view(config, effective.servers[i]!.unavailable));
      const result = {
        file: ctx.paths.settings,
        ...(root === undefined ? {} : { workspace: { root, trusted, files: project!.files, problems: problems.map(formatProblem) } }),
        servers,
        permissions: settings.permissions,
        daemon: { port: settings.daemon.port, workspace_idle_minutes: settings.daemon.workspaceIdleMinutes },
        hub: {
          max_result_mb: settings.hub.maxResultMb,
          list_wait_ms: settings.hub.listWaitMs,
          catalog_cache: settings.hub.catalogCache,
          idle_timeout_seconds: settings.hub.idleTimeoutSeconds,
          deferred: settings.hub.deferred,
          max_tools: settings.hub.maxTools,
          ...(Object.keys(settings.hub.clients).length === 0
            ? {}
            : {
                clients: Object.fromEntries(
                  Object.entries(settings.hub.clients).map(([name, c]) => [
                    name,
                    {
                      ...(c.deferred === undefined ? {} : { deferred: c.deferred }),
                      ...(c.maxTools === undefined ? {} : { max_tools: c.maxTools }),
                    },
                  ]),
                ),
              }),
        },
      };
      if (opts.json) {
        ctx.out(JSON.stringify(result, null, 2));
        return;
      }
      const lines = [`# ${ctx.paths.settings}`];
      if (root !== undefined) {
        lines.push(
          `# workspace ${root}: ${project!.files.length === 0 ? 'no project MCP config' : trusted ? 'trusted' : 'NOT trusted (run blitz trust to use its servers)'}`,
        );
        for (const p of problems) lines.push(`#   ${formatProblem(p)}`);
      }
      for (const s of servers) {
        lines.push('', `[[mcp.servers]]  # from ${s.source}${s.unavailable ? ` — cannot start: ${s.unavailable}` : ''}`);
        for (const [key, value] of Object.entries(s.entry)) lines.push(`${key} = ${formatValue(value, key)}`);
      }
      if (effective.untrusted)
        lines.push('', `# not used until trusted: ${effective.untrusted.servers.join(', ')} (blitz trust ${effective.untrusted.root})`);
      for (const table of ['permissions', 'daemon'] as const) {
        lines.push('', `[${table}]`, ...Object.entries(result[table]).map(([k, v]) => `${k} = ${formatValue(v, k)}`));
      }
      lines.push(...hubLines(result.hub));
      ctx.out(lines.join('\n'));
    });
}

/**
 * `[hub]` as settings.toml writes it: each client's limit a `[hub.clients."<name>"]` table of
 * its own, and the built-in limits of known clients (issue 16) named, since they apply unset.
 */
function hubLines(hub: Record<string, unknown> & { clients?: Record<string, Record<string, unknown>> }): string[] {
  const { clients = {}, ...rest } = hub;
  const builtIn = Object.entries(KNOWN_CLIENTS).flatMap(([name, c]) => [
    ...(c.deferred === undefined ? [] : [`${JSON.stringify(name)} deferred ${JSON.stringify(c.deferred)} (under "auto")`]),
    ...(c.maxTools === undefined ? [] : [`${JSON.stringify(name)} max_tools ${c.maxTools}`]),
  ]);
  const lines = [
    '',
    '[hub]',
    ...Object.entries(rest).map(([k, v]) => `${k} = ${formatValue(v, k)}`),
    `# built-in settings of known clients, where none is set below: ${builtIn.join(', ')}`,
  ];
  for (const [name, table] of Object.entries(clients)) {
    lines.push('', `[hub.clients.${formatKey(name)}]`, ...Object.entries(table).map(([k, v]) => `${k} = ${formatValue(v, k)}`));
  }
  return lines;
}

/** Shown as configured (references unexpanded), with secrets masked (MCP-42). */
function view(config: ServerConfig, unavailable: string | undefined) {
  return {
    source: config.source.kind === 'global' ? 'global settings' : config.source.file,
    entry: maskServerSecrets(serverToEntry(config)),
    ...(unavailable === undefined ? {} : { unavailable }),
  };
}
