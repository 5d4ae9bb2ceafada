import path from 'node:path';
import type { Command } from 'commander';
import {
  askedGrants,
  canonicalProject,
  formatProblem,
  GRANT_MEANING,
  isProjectGrant,
  loadSettings,
  PROJECT_GRANTS,
  readProjectConfig,
  shadowedProblems,
  TrustStore,
  type ProjectConfig,
  type ProjectGrant,
} from '@blitz/core';
import type { CliContext } from '../../context.js';
import { CliError } from '../../context.js';
import { requireFolder } from '../../require-folder.js';

export function registerTrust(program: Command, ctx: CliContext): void {
  program
    .command('trust')
    .description(
      "trust a project's MCP servers (.mcp.json, .agents/mcp_config.json); any change to those files needs trust again. " +
        `What would give its servers more than the safe defaults (${PROJECT_GRANTS.join(', ')}) is shown and granted only with --allow (or a yes on a terminal)`,
    )
    .argument('[dir]', 'project directory (default: the current directory)')
    .option('--allow <fields>', `grant what the project's file asks for, comma-separated: ${PROJECT_GRANTS.join(', ')}`)
    .option('--revoke', 'stop trusting the project')
    .option('--list', 'list trusted projects')
    .action(async (dir: string | undefined, opts: { allow?: string; revoke?: boolean; list?: boolean }) => {
      const store = new TrustStore(ctx.paths.trust);
      if (opts.list) {
        const projects = store.list();
        if (projects.length === 0) ctx.out('No trusted projects.');
        for (const p of projects) {
          const granted = p.allow ? `, granted ${p.allow.join(', ')}` : '';
          ctx.out(`${p.path}  ${p.current ? 'trusted' : 'changed since trusted: run blitz trust again'}  (since ${p.trustedAt}${granted})`);
        }
        return;
      }
      const root = path.resolve(ctx.cwd, dir ?? '.');
      if (opts.revoke) {
        ctx.out((await store.revoke(root)) ? `No longer trusting ${root}.` : `${root} was not trusted.`);
        return;
      }
      const named = parseAllow(opts.allow);
      requireFolder(root, (problem) => `${root} ${problem}; nothing to trust`);
      // Read where the daemon reads it (the real path), so the grants' "inside the project" is the same.
      const project = readProjectConfig(canonicalProject(root));
      if (project.files.length === 0)
        throw new CliError(`${root} has no MCP config (.mcp.json or .agents/mcp_config.json); nothing to trust`);
      const asks = askedBy(project);
      const asked = PROJECT_GRANTS.filter((g) => asks.some((a) => a.grants.includes(g)));
      for (const { server, grants } of asks) {
        ctx.out(`${server} asks for what only you may grant:`);
        for (const g of grants) ctx.out(`  ${GRANT_MEANING[g]}`);
      }
      let allow = asked.filter((g) => named?.includes(g));
      for (const g of named ?? [])
        if (!asked.includes(g)) ctx.err(`blitz: --allow ${g}: no server of this project asks for it; nothing granted for it`);
      if (named === undefined && asked.length > 0 && ctx.ask && (await ctx.ask(`Grant ${asked.join(', ')}? [y/N] `))) allow = asked;
      // Trusted as read and shown here: the hash is of these bytes, not of a second read.
      const trusted = await store.trust(project, { allow });
      const names = project.servers.map((s) => s.name);
      // A server left out for an error is named here too, not only in the problems below.
      const broken = [...new Set(project.problems.flatMap((p) => (p.severity === 'error' && p.server !== undefined ? [p.server] : [])))];
      const count = (n: number) => `${n} MCP server${n === 1 ? '' : 's'}`;
      const used = names.length === 0 ? 'no MCP servers' : `${count(names.length)} (${names.join(', ')})`;
      ctx.out(
        `Trusted ${trusted}: ${used}${broken.length === 0 ? '' : `; ${count(broken.length)} not used for errors (${broken.join(', ')}), see below`}.`,
      );
      if (allow.length > 0) ctx.out(`Granted: ${allow.join(', ')}.`);
      const withheld = asked.filter((g) => !allow.includes(g));
      if (withheld.length > 0)
        ctx.out(
          `Not granted: ${withheld.join(', ')}; those servers run with the safe defaults. To grant: blitz trust --allow ${asked.join(',')} ${trusted}`,
        );
      for (const p of project.problems) ctx.err(formatProblem(p));
      // Sign-ins are kept by name: the user is told which global server this project replaces.
      const global = loadSettings(ctx.paths.settings);
      for (const p of shadowedProblems(global.settings.servers, project, (g) => global.serverLine(g.name, 'name')))
        ctx.err(formatProblem(p));
    });
}

/** `--allow auto_approve,sandbox`: undefined when not given; an unknown name is refused before anything is trusted. */
function parseAllow(value: string | undefined): ProjectGrant[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const unknown = names.filter((n) => !isProjectGrant(n));
  if (unknown.length > 0)
    throw new CliError(`--allow ${unknown.join(',')}: not something a project can be granted; use ${PROJECT_GRANTS.join(', ')}`);
  return names as ProjectGrant[];
}

function askedBy(project: ProjectConfig): Array<{ server: string; grants: ProjectGrant[] }> {
  return project.servers.flatMap((s) => {
    const grants = askedGrants(s, project.root);
    return grants.length === 0 ? [] : [{ server: s.name, grants }];
  });
}
