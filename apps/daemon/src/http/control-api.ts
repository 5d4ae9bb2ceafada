import {
  BlitzError,
  formatProblem,
  hasErrors,
  isTable,
  loadSettings,
  MASK,
  maskArgs,
  maskServerSecrets,
  serverToEntry,
  SettingsEditor,
  type ServerConfig,
  type ServerEntry,
} from '@blitz/core';
import type { ConfigChange, DaemonEnvironment, McpServerConfig, OAuthChange, StatusResponse, WorkspaceServer, WorkspaceSummary } from '@blitz/client';
import type { Workspace } from '../workspaces/workspace.js';
import type { WorkspaceRegistry } from '../workspaces/workspace-registry.js';
import { Router } from './router.js';

export interface ControlApiDeps {
  settingsFile: string;
  registry: WorkspaceRegistry;
  status(after?: number): StatusResponse;
  /** Where this daemon finds commands (`blitz doctor` checks against it, not the shell's). */
  environment(): DaemonEnvironment;
  /** Applies settings.toml to every open workspace now, not waiting for the file watcher. */
  applySettings(): Promise<void>;
  /** A server's OAuth sign-in changed (login, logout): drop its tokens and its live connections. */
  credentialsChanged(server: string): Promise<OAuthChange>;
  shutdown(): void;
  /** Who answers: `GET /v1/health`, the one answer given without the token. */
  identity(): DaemonIdentity;
}

export interface DaemonIdentity {
  service: 'blitz';
  pid: number;
  home: string;
  version: string;
}

/** The control API of DESIGN.md: ConfigService and WorkspaceService over HTTP (MCP-47). */
export function controlApi(deps: ControlApiDeps): Router {
  const editor = new SettingsEditor(deps.settingsFile);
  const change = async (server: string, kind: ConfigChange['change']): Promise<{ body: ConfigChange }> => {
    await deps.applySettings();
    return { body: { file: deps.settingsFile, server, change: kind } };
  };

  return new Router()
    // The cheapest authenticated answer: a liveness probe, and the benchmark's baseline.
    .on('GET', '/v1/health', () => ({ body: { ok: true, ...deps.identity() } }))
    .on('GET', '/v1/status', ({ query }) => {
      const after = query.get('after');
      if (after !== null && !/^\d+$/.test(after)) throw new BlitzError('INVALID_ARGUMENT', `after must be a notice id (a whole number), not ${JSON.stringify(after)}`);
      return { body: deps.status(after === null ? undefined : Number(after)) };
    })
    .on('GET', '/v1/environment', () => ({ body: deps.environment() }))
    .on('GET', '/v1/config/mcp-servers', () => ({
      body: { file: deps.settingsFile, servers: globalServers(deps.settingsFile).map(toConfigDto) },
    }))
    .on('GET', '/v1/config/mcp-servers/:name', ({ params }) => ({ body: toConfigDto(findServer(deps.settingsFile, params.name!)) }))
    .on('PUT', '/v1/config/mcp-servers', async ({ body }) => {
      const entry = toEntry(await body());
      await editor.add(entry);
      return { status: 201, ...(await change(entry.name, 'added')) };
    })
    .on('PUT', '/v1/config/mcp-servers/:name', async ({ params, body }) => {
      const current = findServer(deps.settingsFile, params.name!);
      const entry = keepMaskedSecrets(toEntry(await body()), serverToEntry(current));
      await editor.save(entry, params.name!);
      return change(entry.name, 'replaced');
    })
    .on('DELETE', '/v1/config/mcp-servers/:name', async ({ params }) => {
      await editor.remove(params.name!);
      return change(params.name!, 'removed');
    })
    .on('POST', '/v1/config/mcp-servers/:name/enabled', async ({ params, body }) => {
      const input = await body();
      if (!isTable(input) || typeof input.enabled !== 'boolean') {
        throw new BlitzError('INVALID_ARGUMENT', 'body must be {"enabled": true|false}', { problems: ['enabled: must be true or false'] });
      }
      await editor.setEnabled(params.name!, input.enabled);
      return change(params.name!, input.enabled ? 'enabled' : 'disabled');
    })
    .on('GET', '/v1/workspaces', () => ({ body: deps.registry.list().map(toWorkspaceDto) }))
    .on('POST', '/v1/workspaces', async ({ body }) => {
      const input = await body();
      if (!isTable(input) || typeof input.root !== 'string') {
        throw new BlitzError('INVALID_ARGUMENT', 'body must be {"root": "<directory>"}', { problems: ['root: must be a directory path'] });
      }
      return { body: toWorkspaceDto(await deps.registry.open(input.root)) };
    })
    .on('GET', '/v1/workspaces/:id/mcp-servers', async ({ params, query }) => {
      const workspace = findWorkspace(deps.registry, params.id!);
      // `?connect=true` lists every server's tools first, starting the servers (MCP-10).
      if (query.get('connect') === 'true') await workspace.manager.listTools();
      return { body: workspaceServers(workspace) };
    })
    .on('POST', '/v1/workspaces/:id/mcp-servers/:name/restart', async ({ params }) => {
      const workspace = findWorkspace(deps.registry, params.id!);
      await workspace.manager.restart(params.name!);
      return { body: workspaceServers(workspace).find((s) => s.name === params.name)! };
    })
    .on('POST', '/v1/oauth/:name/changed', async ({ params }) => ({ body: await deps.credentialsChanged(params.name!) }))
    .on('POST', '/v1/shutdown', () => {
      deps.shutdown();
      return { status: 202, body: { stopping: true } };
    });
}

/** The file as it is now: a list or edit must not act on settings that no longer parse. */
function globalServers(file: string): ServerConfig[] {
  const { settings, problems } = loadSettings(file);
  if (hasErrors(problems)) {
    throw new BlitzError('FAILED_PRECONDITION', `${file} has problems; fix them first`, {
      reason: 'SETTINGS_INVALID',
      problems: problems.filter((p) => p.severity === 'error').map(formatProblem),
    });
  }
  return settings.servers;
}

function findServer(file: string, name: string): ServerConfig {
  const found = globalServers(file).find((s) => s.name === name);
  if (!found) throw new BlitzError('NOT_FOUND', `no MCP server named "${name}" in ${file}`, { reason: 'MCP_SERVER_NOT_FOUND' });
  return found;
}

function toConfigDto(server: ServerConfig): McpServerConfig {
  return maskServerSecrets(serverToEntry(server)) as McpServerConfig;
}

function toEntry(input: unknown): ServerEntry {
  if (!isTable(input) || typeof input.name !== 'string') {
    throw new BlitzError('INVALID_ARGUMENT', 'body must be an MCP server object with a "name"', { problems: ['name: is required'] });
  }
  return input as ServerEntry;
}

/**
 * A form that was filled from a GET sends masked values back unchanged: `***` in an env or
 * header value means "keep what is there", never "set it to ***".
 */
function keepMaskedSecrets(entry: ServerEntry, current: ServerEntry): ServerEntry {
  const merged: Record<string, unknown> = { ...entry };
  for (const field of ['env', 'headers'] as const) {
    const next = entry[field];
    const old = current[field];
    if (!isTable(next) || !isTable(old)) continue;
    merged[field] = Object.fromEntries(Object.entries(next).map(([k, v]) => [k, typeof v === 'string' && v.includes(MASK) && typeof old[k] === 'string' ? old[k] : v]));
  }
  // An argument comes back masked as it was shown (`Bearer ***`): the stored one at its place stays.
  if (Array.isArray(entry.args) && Array.isArray(current.args)) {
    const shown = maskArgs(current.args);
    merged.args = entry.args.map((arg, i) => (typeof arg === 'string' && arg.includes(MASK) && arg === shown[i] ? current.args![i]! : arg));
  }
  return merged as ServerEntry;
}

function findWorkspace(registry: WorkspaceRegistry, id: string): Workspace {
  const found = registry.get(id);
  if (!found) throw new BlitzError('NOT_FOUND', `no open workspace with id ${id}`, { reason: 'WORKSPACE_NOT_FOUND' });
  return found;
}

function toWorkspaceDto(w: Workspace): WorkspaceSummary {
  return { id: w.id, root: w.root, clients: w.clients, trusted: w.trusted, servers: w.manager.states().length, problems: [...w.problems] };
}

function workspaceServers(w: Workspace): WorkspaceServer[] {
  const states = w.manager.states();
  return w.manager.connections().map((c, i) => {
    const s = states[i]!;
    return {
      name: s.name,
      state: s.state,
      ...(s.error === undefined ? {} : { error: s.error }),
      ...(s.retryAt === undefined ? {} : { retryAt: new Date(s.retryAt).toISOString() }),
      tools: s.tools,
      warnings: s.warnings,
      ...(s.pid === undefined ? {} : { pid: s.pid }),
      source: c.config.source.kind === 'global' ? 'global' : c.config.source.file,
      shared: w.manager.isShared(c.name),
    };
  });
}
