import path from 'node:path';
import type { Command } from 'commander';
import { formatProblem, readProjectConfig, TrustStore } from '@blitz/core';
import type { CliContext } from '../../context.js';
import { CliError } from '../../context.js';
import { requireFolder } from '../../require-folder.js';

export function registerTrust(program: Command, ctx: CliContext): void {
  program
    .command('trust')
    .description("trust a project's MCP servers (.mcp.json, .agents/mcp_config.json); any change to those files needs trust again")
    .argument('[dir]', 'project directory (default: the current directory)')
    .option('--revoke', 'stop trusting the project')
    .option('--list', 'list trusted projects')
    .action(async (dir: string | undefined, opts: { revoke?: boolean; list?: boolean }) => {
      const store = new TrustStore(ctx.paths.trust);
      if (opts.list) {
        const projects = store.list();
        if (projects.length === 0) ctx.out('No trusted projects.');
        for (const p of projects) ctx.out(`${p.path}  ${p.current ? 'trusted' : 'changed since trusted: run blitz trust again'}  (since ${p.trustedAt})`);
        return;
      }
      const root = path.resolve(ctx.cwd, dir ?? '.');
      if (opts.revoke) {
        ctx.out((await store.revoke(root)) ? `No longer trusting ${root}.` : `${root} was not trusted.`);
        return;
      }
      requireFolder(root, (problem) => `${root} ${problem}; nothing to trust`);
      const project = readProjectConfig(root);
      if (project.files.length === 0) throw new CliError(`${root} has no MCP config (.mcp.json or .agents/mcp_config.json); nothing to trust`);
      // Trusted as read and shown here: the hash is of these bytes, not of a second read.
      const trusted = await store.trust(project);
      const names = project.servers.map((s) => s.name);
      // A server left out for an error is named here too, not only in the problems below.
      const broken = [...new Set(project.problems.flatMap((p) => (p.severity === 'error' && p.server !== undefined ? [p.server] : [])))];
      const count = (n: number) => `${n} MCP server${n === 1 ? '' : 's'}`;
      const used = names.length === 0 ? 'no MCP servers' : `${count(names.length)} (${names.join(', ')})`;
      ctx.out(`Trusted ${trusted}: ${used}${broken.length === 0 ? '' : `; ${count(broken.length)} not used for errors (${broken.join(', ')}), see below`}.`);
      for (const p of project.problems) ctx.err(formatProblem(p));
    });
}

