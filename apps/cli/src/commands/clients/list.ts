import path from 'node:path';
import { inspectClient, inspectFile, inspectLocalScope, type ClientState } from '@blitz/clients';
import { clientSurface, loadSettings, type ClientSurface } from '@blitz/core';
import type { CliContext } from '../../context.js';
import { renderTable } from '../../output/table.js';
import { requireFolder } from '../../require-folder.js';
import { selectClients, shortPath, whereOf } from './client-context.js';

export interface ListOptions {
  json?: boolean;
  project?: string;
}

/** `blitz clients`: one row a client (or a project file with --project). */
export async function listClients(ctx: CliContext, opts: ListOptions): Promise<void> {
  const states = await clientStates(ctx, [], opts.project);
  // Settings with a mistake still say how each client is offered its tools; `blitz doctor` names the mistake.
  const { hub } = loadSettings(ctx.paths.settings).settings;
  const rows = states.map((s) => ({
    id: s.spec.id,
    title: s.spec.title,
    file: s.file,
    found: s.exists,
    installed: s.installed,
    pointsAtBlitz: s.pointsAtBlitz,
    servers: s.servers.filter((x) => x.name !== 'blitz').length,
    clientInfoName: s.spec.clientInfoName,
    surface: clientSurface(hub, s.spec.clientInfoName),
    ...(s.error === undefined ? {} : { error: s.error }),
  }));
  if (opts.json) {
    ctx.out(JSON.stringify(rows, null, 2));
    return;
  }
  const status = (r: (typeof rows)[number]) =>
    r.error !== undefined ? 'unreadable' : r.found ? 'found' : r.installed ? 'no file yet' : 'not found';
  ctx.out(
    renderTable(
      ['CLIENT', 'CONFIG FILE', 'STATUS', 'BLITZ', 'SERVERS', 'TOOLS'],
      rows.map((r) => [
        r.id,
        shortPath(ctx, r.file),
        status(r),
        r.pointsAtBlitz ? 'connected' : '-',
        r.found && r.error === undefined ? String(r.servers) : '-',
        surfaceCell(r.surface),
      ]),
    ),
  );
  for (const r of rows) if (r.error !== undefined) ctx.err(`blitz: ${r.error}`);
  if (opts.project === undefined && rows.some((r) => r.found && !r.pointsAtBlitz)) {
    ctx.out('\nImport their servers with `blitz clients import`, then point them at Blitz with `blitz clients connect --all`.');
  }
}

/** How Blitz offers a client its tools (issue 30.3), in a table cell: `all listed`, `100, then search`, `search`. */
function surfaceCell(surface: ClientSurface): string {
  if (surface.deferred === 'never') return 'all listed';
  if (surface.deferred === 'always') return 'search';
  return `${surface.maxTools}, then search`;
}

/** User-scope files of these clients, or with a project folder, the project files that exist there. */
export async function clientStates(ctx: CliContext, ids: readonly string[], project: string | undefined): Promise<ClientState[]> {
  const specs = selectClients(ids);
  if (project === undefined) return Promise.all(specs.map((spec) => inspectClient(spec, whereOf(ctx))));
  const asked = path.resolve(ctx.cwd, project);
  const dir = requireFolder(asked, (problem) => `the project ${asked} ${problem} (--project)`);
  const states = await Promise.all(
    specs.flatMap((spec) => [
      ...spec.projectFiles.map((rel) => inspectFile(spec, path.join(dir, rel))),
      inspectLocalScope(spec, whereOf(ctx), dir),
    ]),
  );
  return states.filter((s): s is ClientState => s !== undefined && s.exists);
}
