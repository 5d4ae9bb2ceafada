import fs from 'node:fs';
import path from 'node:path';
import {
  addServerEntry,
  BlitzError,
  clientSurface,
  describeSurface,
  isBlitzError,
  loadSettings,
  maskServerSecrets,
  parseTomlText,
  serverToEntry,
  SettingsEditor,
  type HubSettings,
  type ServerEntry,
} from '@blitz/core';
import {
  BackupStore,
  CLIENTS,
  clientById,
  connectClient,
  findServers,
  inspectClient,
  maskSecretsIn,
  planImport,
  describeEntry,
  redactorFor,
  unifiedDiff,
  whereFromProcess,
  type BlitzLaunch,
  type ClientSpec,
  type ClientState,
  type FoundServer,
} from '@blitz/clients';
import type { ClientConnected, ClientImported, ClientReport, ClientsReport, ConnectPreview, ImportPreview } from '@blitz/client';

import type { Router } from './router.js';

export interface ClientRouteDeps {
  settingsFile: string;
  /** `state/client-backups`, the CLI's backup store: `blitz clients disconnect` undoes a connect made here. */
  backupDir: string;
  /** The env the clients' files are found by (HOME, XDG_CONFIG_HOME, APPDATA). */
  env(): NodeJS.ProcessEnv;
  hub(): HubSettings;
  /** What a connect writes; undefined: say to run `blitz clients connect` in a terminal. */
  launch(): BlitzLaunch | undefined;
  editor: SettingsEditor;
  applySettings(): Promise<void>;
}

/**
 * `blitz clients` from the settings page (issue 29.9): each client Blitz knows, what import
 * and connect would change as diffs, and both done through packages/clients as the CLI does
 * them — never over a file that did not parse, written atomically, comments kept.
 */
export function clientRoutes(router: Router, deps: ClientRouteDeps): Router {
  const spec = (id: string): ClientSpec => {
    const found = clientById(id);
    if (found === undefined)
      throw new BlitzError('NOT_FOUND', `unknown client "${id}"; known clients: ${CLIENTS.map((c) => c.id).join(', ')}`);
    return found;
  };
  const inspect = (s: ClientSpec) => inspectClient(s, whereFromProcess(deps.env()));
  return router
    .on('GET', '/v1/clients', async () => {
      const text = readText(deps.settingsFile);
      const { settings } = loadSettings(deps.settingsFile);
      const existing = settings.servers.map(serverToEntry);
      const states = await Promise.all(CLIENTS.map(inspect));
      const clients = await Promise.all(states.map((state) => report(state, existing, text, deps)));
      const body: ClientsReport = { settingsFile: deps.settingsFile, clients };
      return { body };
    })
    .on('POST', '/v1/clients/:id/import', async ({ params }) => {
      const state = usable(await inspect(spec(params.id!)));
      const plan = planImport(findServers([state]).found, strictServers(deps.settingsFile));
      const redactor = redactorFor(plan.add.map((f) => f.entry));
      const answer: ClientImported = { client: state.spec.id, target: deps.settingsFile, added: [], refused: [] };
      for (const server of plan.add) {
        try {
          await deps.editor.add(server.entry);
          answer.added.push(server.entry.name);
        } catch (err) {
          if (!isBlitzError(err, 'INVALID_ARGUMENT')) throw err;
          const problems = err.problems.length > 0 ? err.problems : [err.message];
          answer.refused.push({ name: server.entry.name, problems: problems.map((p) => redactor.redact(p)) });
        }
      }
      if (answer.added.length > 0) await deps.applySettings();
      return { body: answer };
    })
    .on('POST', '/v1/clients/:id/connect', async ({ params }) => {
      const state = usable(await inspect(spec(params.id!)));
      const launch = deps.launch();
      if (launch === undefined) throw new BlitzError('FAILED_PRECONDITION', noLaunch(state.spec));
      const result = await connectClient(state.spec, state.file, {
        launch,
        blitzServers: strictServers(deps.settingsFile),
        store: new BackupStore(deps.backupDir),
      });
      const note = restartNote(state.spec);
      const body: ClientConnected = {
        client: state.spec.id,
        file: result.file,
        changed: result.changed,
        removed: result.plan.remove.map((r) => r.name),
        kept: result.plan.keep.map((k) => ({ name: k.name, why: k.why })),
        ...(note && result.changed ? { restartNote: note } : {}),
      };
      return { body };
    });
}

async function report(state: ClientState, existing: ServerEntry[], settingsText: string, deps: ClientRouteDeps): Promise<ClientReport> {
  const surface = clientSurface(deps.hub(), state.spec.clientInfoName);
  const base = {
    id: state.spec.id,
    title: state.spec.title,
    file: state.file,
    found: state.exists,
    installed: state.installed,
    pointsAtBlitz: state.pointsAtBlitz,
    surface: { text: describeSurface(surface), because: surface.because },
  };
  if (state.error !== undefined) {
    const refused = { diff: '', remove: [], keep: [], error: state.error };
    return { ...base, error: state.error, import: emptyImport(), connect: refused };
  }
  return {
    ...base,
    import: importPreview(state, existing, settingsText, deps.settingsFile),
    connect: await connectPreview(state, existing, deps),
  };
}

function importPreview(state: ClientState, existing: ServerEntry[], text: string, file: string): ImportPreview {
  if (!state.exists) return emptyImport();
  const { found, skipped } = findServers([state]);
  const plan = planImport(found, existing);
  const redactor = redactorFor([...found.map((f) => f.entry), ...existing]);
  // The diff of settings.toml as the editor would write it, every env and header value masked.
  const before = maskSecretsIn(text, tomlOf(text, file));
  const after = plan.add.reduce((t, f: FoundServer) => addServerEntry(t, maskServerSecrets(f.entry), file), before);
  return {
    add: plan.add.map((f) => ({ name: f.entry.name, describe: describeEntry(f.entry, redactor) })),
    present: plan.present.map((p) => ({ name: p.found.name, as: p.as })),
    conflicts: plan.conflicts.map((c) => ({ name: c.found.entry.name })),
    skipped: skipped.map((s) => ({ name: s.name, reason: s.reason })),
    diff: before === after ? '' : unifiedDiff(before, after, file),
  };
}

async function connectPreview(state: ClientState, existing: ServerEntry[], deps: ClientRouteDeps): Promise<ConnectPreview> {
  const launch = deps.launch();
  if (launch === undefined) return { diff: '', remove: [], keep: [], error: noLaunch(state.spec) };
  try {
    const r = await connectClient(state.spec, state.file, {
      launch,
      blitzServers: existing,
      store: new BackupStore(deps.backupDir),
      dryRun: true,
    });
    const note = restartNote(state.spec);
    return {
      diff: r.diff,
      blitz: r.plan.blitz,
      remove: r.plan.remove.map((x) => x.name),
      keep: r.plan.keep.map((k) => ({ name: k.name, why: k.why })),
      ...(note ? { restartNote: note } : {}),
    };
  } catch (err) {
    return { diff: '', remove: [], keep: [], error: err instanceof Error ? err.message : String(err) };
  }
}

const emptyImport = (): ImportPreview => ({ add: [], present: [], conflicts: [], skipped: [], diff: '' });

function usable(state: ClientState): ClientState {
  if (state.error !== undefined) throw new BlitzError('FAILED_PRECONDITION', `${state.error}; nothing was changed`);
  return state;
}

/** The servers of settings.toml; refused while it has errors, as `blitz clients` refuses. */
function strictServers(file: string): ServerEntry[] {
  const { settings, problems } = loadSettings(file);
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0)
    throw new BlitzError('FAILED_PRECONDITION', `${file} has problems; fix them first`, { reason: 'SETTINGS_INVALID' });
  return settings.servers.map(serverToEntry);
}

function restartNote(spec: ClientSpec): string | undefined {
  return spec.rewritesWhileRunning === undefined
    ? undefined
    : `${spec.title} keeps this file in memory while it runs: restart it, or it may write the old servers back.`;
}

function noLaunch(spec: ClientSpec): string {
  return `this daemon was not started by a blitz it can name, so it cannot write ${spec.title}'s entry; run blitz clients connect ${spec.id} in a terminal`;
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

function tomlOf(text: string, file: string): unknown {
  try {
    return parseTomlText(text, path.basename(file));
  } catch {
    return {};
  }
}
