import path from 'node:path';
import { isBlitzError, readProjectConfig, serverToEntry, SettingsEditor, type ServerEntry } from '@blitz/core';
import {
  describeEntry,
  editClientFile,
  findServers,
  redactorFor,
  parseJsonText,
  planImport,
  setJsonValue,
  type FoundServer,
  type ImportPlan,
} from '@blitz/clients';
import type { CliContext } from '../../context.js';
import { blitzServerEntries, blitzServerEntriesLoose, shortPath } from './client-context.js';
import { clientStates } from './list.js';

export interface ImportOptions {
  project?: string;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * `blitz clients import`: the clients' servers into settings.toml (through the same editor
 * as `blitz mcp add`), or with --project, a project's client files into its `.mcp.json`,
 * where they run only once the project is trusted.
 */
export async function importServers(ctx: CliContext, ids: readonly string[], opts: ImportOptions): Promise<void> {
  const project = opts.project === undefined ? undefined : path.resolve(ctx.cwd, opts.project);
  const states = (await clientStates(ctx, ids, opts.project)).filter((s) => s.exists);
  const { found, skipped, unreadable } = findServers(states);
  const target = project === undefined ? ctx.paths.settings : path.join(project, '.mcp.json');
  // A project server that is already a global one is not copied into the project.
  const existing =
    project === undefined
      ? blitzServerEntries(ctx)
      : [...readProjectConfig(project).servers.map(serverToEntry), ...blitzServerEntriesLoose(ctx)];
  const plan = planImport(found, existing);
  const redactor = redactorFor([...found.map((f) => f.entry), ...existing]);

  const added: FoundServer[] = [];
  const refused: { found: FoundServer; problems: readonly string[] }[] = [];
  if (!opts.dryRun) {
    for (const server of plan.add) {
      try {
        if (project === undefined) await new SettingsEditor(target).add(server.entry);
        else await addToProjectFile(target, server.entry);
        added.push(server);
      } catch (err) {
        if (!isBlitzError(err, 'INVALID_ARGUMENT')) throw err;
        refused.push({ found: server, problems: err.problems.length > 0 ? err.problems : [err.message] });
      }
    }
  }

  if (opts.json) {
    const show = (f: FoundServer) => ({
      name: f.entry.name,
      client: f.client,
      file: f.file,
      clientName: f.name,
      server: describeEntry(f.entry, redactor),
      warnings: f.warnings.map((w) => redactor.redact(w)),
    });
    ctx.out(
      JSON.stringify(
        {
          target,
          dryRun: Boolean(opts.dryRun),
          [opts.dryRun ? 'wouldAdd' : 'added']: (opts.dryRun ? plan.add : added).map(show),
          refused: refused.map((r) => ({ ...show(r.found), problems: r.problems.map((p) => redactor.redact(p)) })),
          present: plan.present.map((p) => ({ ...show(p.found), as: p.as })),
          duplicates: plan.duplicates.map((d) => ({ ...show(d.found), sameAs: { client: d.sameAs.client, name: d.sameAs.name } })),
          conflicts: plan.conflicts.map((c) => ({
            ...show(c.found),
            kept:
              c.kept.from === 'blitz'
                ? { from: 'blitz', server: describeEntry(c.kept.entry, redactor) }
                : { from: c.kept.found.client, file: c.kept.found.file, server: describeEntry(c.kept.found.entry, redactor) },
          })),
          skipped,
          unreadable,
        },
        null,
        2,
      ),
    );
  } else {
    printImport(ctx, {
      plan,
      added,
      refused,
      dryRun: Boolean(opts.dryRun),
      target,
      describe: (e) => describeEntry(e, redactor),
      redact: (t) => redactor.redact(t),
    });
    for (const s of skipped) ctx.out(`  skipped ${s.name} from ${s.client} ${shortPath(ctx, s.file)}: ${s.reason}`);
    if (states.length === 0)
      ctx.out(project === undefined ? 'No client config files found (see blitz clients).' : `No client config files in ${project}.`);
    if (project !== undefined && (plan.add.length > 0 || plan.present.length > 0)) {
      ctx.out(`These are project servers of ${project}: Blitz runs them only once you trust the project (blitz trust ${project}).`);
    }
  }
  for (const u of unreadable) ctx.err(`blitz: ${u.error}`);
  if (unreadable.length > 0 || refused.length > 0) process.exitCode = 1;
}

interface ImportReport {
  plan: ImportPlan;
  added: readonly FoundServer[];
  refused: readonly { found: FoundServer; problems: readonly string[] }[];
  dryRun: boolean;
  target: string;
  describe: (entry: ServerEntry) => string;
  redact: (text: string) => string;
}

function printImport(ctx: CliContext, r: ImportReport): void {
  const from = (f: FoundServer) =>
    `from ${f.client} ${shortPath(ctx, f.file)}${f.name === f.entry.name ? '' : ` (${JSON.stringify(f.name)} there)`}`;
  const list = r.dryRun ? r.plan.add : r.added;
  const count = `${list.length} MCP server${list.length === 1 ? '' : 's'}`;
  ctx.out(`${r.dryRun ? 'Would import' : 'Imported'} ${count} into ${shortPath(ctx, r.target)}${list.length > 0 ? ':' : '.'}`);
  for (const f of list) {
    ctx.out(`  + ${f.entry.name}: ${r.describe(f.entry)} ${from(f)}`);
    for (const w of f.warnings) ctx.out(`      warning: ${r.redact(w)}`);
  }
  for (const { found, problems } of r.refused) {
    ctx.out(`  ! ${found.entry.name} ${from(found)} was not imported:`);
    for (const p of problems) ctx.out(`      ${r.redact(p)}`);
  }
  for (const p of r.plan.present)
    ctx.out(`  = ${p.found.name} ${from(p.found)}: already in Blitz${p.as === p.found.entry.name ? '' : ` as ${p.as}`}`);
  for (const d of r.plan.duplicates)
    ctx.out(`  = ${d.found.name} ${from(d.found)}: the same server as ${d.sameAs.entry.name} from ${d.sameAs.client}; imported once`);
  for (const c of r.plan.conflicts) {
    const kept =
      c.kept.from === 'blitz'
        ? `${shortPath(ctx, r.target)}: ${r.describe(c.kept.entry)}`
        : `${c.kept.found.client} ${shortPath(ctx, c.kept.found.file)}: ${r.describe(c.kept.found.entry)}`;
    ctx.out(`  ! conflict: two different servers named ${c.found.entry.name}; nothing was guessed`);
    ctx.out(`      kept     ${kept}`);
    ctx.out(`      not kept ${c.found.client} ${shortPath(ctx, c.found.file)}: ${r.describe(c.found.entry)}`);
    ctx.out(`      rename one of them (or blitz mcp add it under another name)`);
  }
}

/** One server into a project's `.mcp.json`, in place (comments and other keys kept). */
async function addToProjectFile(file: string, entry: ServerEntry): Promise<void> {
  const { name, ...fields } = entry;
  const value = fields.url !== undefined ? { type: 'http', ...fields } : fields;
  await editClientFile(
    file,
    (text) => {
      const data = parseJsonText(text, file);
      const servers = { ...((data.mcpServers as Record<string, unknown> | undefined) ?? {}), [name]: value };
      return { after: setJsonValue(text, ['mcpServers', name], value), intended: { ...data, mcpServers: servers } };
    },
    { parse: (text) => parseJsonText(text, file) },
  );
}
