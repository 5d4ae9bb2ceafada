import {
  BlitzError,
  decide,
  formatEntryProblem,
  formatProblem,
  hasErrors,
  isTable,
  loadSettings,
  MASK,
  maskArgs,
  maskServerSecrets,
  permissionKey,
  serverToEntry,
  SettingsEditor,
  type Permissions,
  type ServerConfig,
  type ServerEntry,
} from '@blitz/core';
import type {
  ConfigChange,
  DaemonEnvironment,
  ExposedTool,
  McpServerConfig,
  OAuthChange,
  ReviewAccepted,
  ServerProblems,
  ServerReview,
  ServerTestResult,
  SettingsCode,
  SettingsSession,
  WorkspaceServer,
  WorkspaceServerDetail,
  WorkspaceSummary,
} from '@blitz/client';
import { CSRF_HEADER } from '../settings-page/page-sessions.js';
import type { Workspace } from '../workspaces/workspace.js';
import type { WorkspaceRegistry } from '../workspaces/workspace-registry.js';
import type { JsonBytes } from './json-bytes.js';
import { Router } from './router.js';
import { saveWarnings } from './save-warnings.js';
import { setToolApproval, setToolOffered } from './tool-settings.js';
import { signInRoutes } from './sign-in-routes.js';
import type { PageSignIns } from '../page-sign-ins.js';
import type { ServerLogBook } from '../log/server-log-book.js';
import { logRoutes } from './log-routes.js';
import { auditRoutes } from './audit-routes.js';
import type { RecentCalls } from '../audit/recent-calls.js';
import { contextRoutes, type ContextRouteDeps } from './context-routes.js';
import { clientRoutes } from './client-routes.js';
import type { DaemonLaunches } from '../blitz-launch.js';

export interface ControlApiDeps {
  settingsFile: string;
  registry: WorkspaceRegistry;
  /** The status, serialised and masked ahead of time (status-cache.ts). */
  status(after?: number): JsonBytes;
  /** Where this daemon finds commands (`blitz doctor` checks against it, not the shell's). */
  environment(): DaemonEnvironment;
  /** Applies settings.toml to every open workspace now, not waiting for the file watcher. */
  applySettings(): Promise<void>;
  /** The text an edit here is about to write to settings.toml: the watcher leaves that change to `applySettings` (issue 27.5). */
  writingSettings(text: string): void;
  /** A server's OAuth sign-in changed (login, logout): drop its tokens and its live connections. */
  credentialsChanged(server: string): Promise<OAuthChange>;
  /** Sign-ins started from the settings page. */
  signIns: PageSignIns;
  /** Each server's last stderr and daemon lines, for the page's logs view. */
  serverLogs: ServerLogBook;
  /** The latest audited calls per server. */
  recentCalls: RecentCalls;
  /** `[hub]` in force and the tools' use counts, for what each client's tool list costs (`blitz context`). */
  context: Omit<ContextRouteDeps, 'workspace'>;
  /** The permission rules in force, for whether a tool's call is asked (MCP-30). */
  permissions(): Permissions;
  /** What a client's `blitz connect` entry needs in its env to reach this daemon. */
  connectEnv(): Record<string, string>;
  /** How a client's entry starts Blitz: the page's snippets, and what a connect from the page writes. */
  launches(): DaemonLaunches;
  /** `state/client-backups`: connect's backups, shared with `blitz clients disconnect`. */
  clientBackupDir: string;
  /** The env clients' config files are found by (HOME and the rest). */
  clientEnv(): NodeJS.ProcessEnv;
  /** A one-time address of the settings page. */
  settingsCode(): SettingsCode;
  /** Connects to one server on its own, lists its tools and closes (`blitz doctor --online` for one). */
  testServer(config: ServerConfig): Promise<ServerTestResult>;
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
  const editor = new SettingsEditor(deps.settingsFile, { beforeWrite: (text) => deps.writingSettings(text) });
  const change = async (server: string, kind: ConfigChange['change']): Promise<{ body: ConfigChange }> => {
    await deps.applySettings();
    // A saved server whose command is not found, or that no sandbox here can run, says so (issue 26.5).
    const warnings = kind === 'added' || kind === 'replaced' ? saveWarnings(findServer(deps.settingsFile, server), deps.environment()) : [];
    return { body: { file: deps.settingsFile, server, change: kind, ...(warnings.length > 0 ? { warnings } : {}) } };
  };

  const router = new Router();
  signInRoutes(router, deps.signIns, (name) => findServer(deps.settingsFile, name));
  logRoutes(router, deps.serverLogs);
  auditRoutes(router, deps.recentCalls);
  contextRoutes(router, { ...deps.context, workspace: (id) => findWorkspace(deps.registry, id) });
  clientRoutes(router, {
    settingsFile: deps.settingsFile,
    backupDir: deps.clientBackupDir,
    env: deps.clientEnv,
    hub: deps.context.hub,
    launch: () => deps.launches().connect,
    editor,
    applySettings: deps.applySettings,
  });
  return (
    router
      // The cheapest authenticated answer: a liveness probe, and the benchmark's baseline.
      .on('GET', '/v1/health', () => ({ body: { ok: true, ...deps.identity() } }))
      .on('GET', '/v1/status', ({ query }) => {
        const after = query.get('after');
        if (after !== null && !/^\d+$/.test(after))
          throw new BlitzError('INVALID_ARGUMENT', `after must be a notice id (a whole number), not ${JSON.stringify(after)}`);
        return { body: deps.status(after === null ? undefined : Number(after)) };
      })
      .on('GET', '/v1/environment', () => ({ body: deps.environment() }))
      .on('GET', '/v1/config/mcp-servers', () => ({
        body: { file: deps.settingsFile, servers: globalServers(deps.settingsFile).map(toConfigDto) },
      }))
      // Before `:name`: the settings page's form asks for every problem before it saves (MCP-46).
      .on('POST', '/v1/config/mcp-servers/validate', async ({ body }) => {
        const input = await body();
        if (!isTable(input) || !isTable(input.server) || (input.name !== undefined && typeof input.name !== 'string')) {
          throw new BlitzError('INVALID_ARGUMENT', 'body must be {"server": {…}, "name"?: "<the server it replaces>"}', {
            problems: ['server: must be an MCP server object'],
          });
        }
        const replacing = input.name as string | undefined;
        const server =
          replacing === undefined
            ? input.server
            : keepMaskedSecrets(input.server as ServerEntry, serverToEntry(findServer(deps.settingsFile, replacing)));
        const answer: ServerProblems = {
          problems: editor.problemsOf(server, replacing).map((p) => ({ ...p, text: formatEntryProblem(p) })),
        };
        return { body: answer };
      })
      .on('POST', '/v1/config/mcp-servers/:name/test', async ({ params }) => ({
        body: await deps.testServer(findServer(deps.settingsFile, params.name!)),
      }))
      .on('GET', '/v1/config/mcp-servers/:name', ({ params }) => ({ body: toConfigDto(findServer(deps.settingsFile, params.name!)) }))
      .on('PUT', '/v1/config/mcp-servers', async ({ body }) => {
        const entry = toEntry(await body());
        await editor.add(entry);
        return { status: 201, ...(await change(entry.name, 'added')) };
      })
      .on('PUT', '/v1/config/mcp-servers/:name', async ({ params, body }) => {
        const entry = toEntry(await body());
        // Secrets the form sent back masked are filled from the file as it is under the lock.
        await editor.save((current) => keepMaskedSecrets(entry, serverToEntry(current)), params.name!);
        return change(entry.name, 'replaced');
      })
      .on('DELETE', '/v1/config/mcp-servers/:name', async ({ params }) => {
        await editor.remove(params.name!);
        return change(params.name!, 'removed');
      })
      .on('POST', '/v1/config/mcp-servers/:name/enabled', async ({ params, body }) => {
        const input = await body();
        if (!isTable(input) || typeof input.enabled !== 'boolean') {
          throw new BlitzError('INVALID_ARGUMENT', 'body must be {"enabled": true|false}', {
            problems: ['enabled: must be true or false'],
          });
        }
        await editor.setEnabled(params.name!, input.enabled);
        return change(params.name!, input.enabled ? 'enabled' : 'disabled');
      })
      .on('POST', '/v1/config/mcp-servers/:name/tools/:tool/enabled', async ({ params, body }) => {
        const input = await body();
        if (!isTable(input) || typeof input.enabled !== 'boolean') {
          throw new BlitzError('INVALID_ARGUMENT', 'body must be {"enabled": true|false}', {
            problems: ['enabled: must be true or false'],
          });
        }
        await setToolOffered(editor, deps.registry, findServer(deps.settingsFile, params.name!), params.tool!, input.enabled);
        return change(params.name!, 'replaced');
      })
      .on('POST', '/v1/config/mcp-servers/:name/tools/:tool/approval', async ({ params, body }) => {
        const input = await body();
        if (!isTable(input) || (input.approval !== 'allow' && input.approval !== 'ask' && input.approval !== 'deny')) {
          throw new BlitzError('INVALID_ARGUMENT', 'body must be {"approval": "allow"|"ask"|"deny"}', {
            problems: ['approval: must be allow, ask or deny'],
          });
        }
        // Read from the file after each edit, not from the settings in force: they change under it.
        await setToolApproval(
          editor,
          () => loadSettings(deps.settingsFile).settings.permissions,
          findServer(deps.settingsFile, params.name!),
          params.tool!,
          input.approval,
        );
        return change(params.name!, 'replaced');
      })
      .on('GET', '/v1/workspaces', () => ({ body: deps.registry.list().map(toWorkspaceDto) }))
      .on('POST', '/v1/workspaces', async ({ body }) => {
        const input = await body();
        if (!isTable(input) || typeof input.root !== 'string') {
          throw new BlitzError('INVALID_ARGUMENT', 'body must be {"root": "<directory>"}', {
            problems: ['root: must be a directory path'],
          });
        }
        return { body: toWorkspaceDto(await deps.registry.open(input.root)) };
      })
      .on('GET', '/v1/workspaces/:id/mcp-servers', async ({ params, query }) => {
        const workspace = findWorkspace(deps.registry, params.id!);
        // `?connect=true` lists every server's tools first, starting the servers (MCP-10).
        if (query.get('connect') === 'true') await workspace.manager.listTools();
        return { body: workspaceServers(workspace) };
      })
      .on('GET', '/v1/workspaces/:id/mcp-servers/:name', ({ params }) => {
        const workspace = findWorkspace(deps.registry, params.id!);
        const server = workspaceServers(workspace).find((s) => s.name === params.name);
        if (!server)
          throw new BlitzError('NOT_FOUND', `no MCP server named "${params.name}" in the workspace ${workspace.root}`, {
            reason: 'MCP_SERVER_NOT_FOUND',
          });
        const connection = workspace.manager.connection(server.name);
        const permissions = deps.permissions();
        const exposedTools = workspace.manager
          .catalog()
          .forServer(server.name)
          .map((e): ExposedTool => {
            const verdict = decide(permissions, permissionKey(e.server, e.originalName), connection.config.autoApprove);
            return {
              exposedName: e.exposedName,
              originalName: e.originalName,
              ...(e.tool.description === undefined ? {} : { description: e.tool.description }),
              approval: verdict.kind,
              ...(verdict.kind === 'ask' ? {} : { why: verdict.why }),
            };
          });
        const offered = new Set(exposedTools.map((t) => t.originalName));
        const otherTools = connection
          .currentTools()
          .filter((t) => !offered.has(t.name))
          .map((t) => ({
            originalName: t.name,
            ...(t.description === undefined ? {} : { description: t.description }),
            inAllowList: connection.config.tools?.includes(t.name) ?? true,
          }));
        const detail: WorkspaceServerDetail = { ...server, exposedTools, otherTools, stderrTail: connection.stderrTail() };
        return { body: detail };
      })
      .on('POST', '/v1/workspaces/:id/mcp-servers/:name/restart', async ({ params }) => {
        const workspace = findWorkspace(deps.registry, params.id!);
        await workspace.manager.restart(params.name!);
        return { body: workspaceServers(workspace).find((s) => s.name === params.name)! };
      })
      .on('GET', '/v1/workspaces/:id/mcp-servers/:name/review', ({ params }) => {
        const workspace = findWorkspace(deps.registry, params.id!);
        const review: ServerReview = { server: params.name!, workspace: workspace.root, tools: workspace.manager.reviews(params.name!) };
        return { body: review };
      })
      .on('POST', '/v1/workspaces/:id/mcp-servers/:name/review/accept', async ({ params, body }) => {
        const workspace = findWorkspace(deps.registry, params.id!);
        const input = await body();
        const tools = isTable(input) ? input.tools : undefined;
        if (!isTable(input) || (tools !== undefined && !(Array.isArray(tools) && tools.every((t) => typeof t === 'string')))) {
          throw new BlitzError('INVALID_ARGUMENT', 'body must be {} or {"tools": ["<tool>", …]}', {
            problems: ['tools: must be a list of tool names'],
          });
        }
        const accepted = workspace.manager.acceptReview(params.name!, tools as string[] | undefined);
        // A global server's pins are every workspace's: each one's catalog follows.
        for (const other of deps.registry.list()) if (other !== workspace) other.manager.pinsChanged();
        const answer: ReviewAccepted = { server: params.name!, accepted };
        return { body: answer };
      })
      .on('POST', '/v1/oauth/:name/changed', async ({ params }) => ({ body: await deps.credentialsChanged(params.name!) }))
      .on('POST', '/v1/settings/code', ({ caller }) => {
        // Only the token's holder hands out codes: a page session cannot make itself more.
        if (caller.kind !== 'token')
          throw new BlitzError('PERMISSION_DENIED', 'a settings code is issued only to a holder of the bearer token');
        return { body: deps.settingsCode(), credential: true };
      })
      .on('GET', '/v1/settings/session', ({ caller }) => {
        if (caller.kind !== 'page')
          throw new BlitzError('FAILED_PRECONDITION', 'only the settings page has a session; open it with blitz settings');
        const session: SettingsSession = {
          csrfToken: caller.session.csrf,
          header: CSRF_HEADER,
          file: deps.settingsFile,
          connectEnv: deps.connectEnv(),
          launch: deps.launches().snippet,
        };
        return { body: session, credential: true };
      })
      .on('POST', '/v1/shutdown', () => {
        deps.shutdown();
        return { status: 202, body: { stopping: true } };
      })
  );
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
    merged[field] = Object.fromEntries(
      Object.entries(next).map(([k, v]) => [k, typeof v === 'string' && v.includes(MASK) && typeof old[k] === 'string' ? old[k] : v]),
    );
  }
  // An argument comes back masked as it was shown (`Bearer ***`): the stored one at its place stays.
  if (Array.isArray(entry.args) && Array.isArray(current.args)) {
    const shown = maskArgs(current.args);
    merged.args = entry.args.map((arg, i) => (typeof arg === 'string' && arg.includes(MASK) && arg === shown[i] ? current.args![i]! : arg));
  }
  // A URL is masked where it holds a secret (a token in its query): sent back as shown, it is kept.
  if (
    typeof entry.url === 'string' &&
    entry.url.includes(MASK) &&
    typeof current.url === 'string' &&
    maskServerSecrets(current).url === entry.url
  )
    merged.url = current.url;
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
      ...(s.causeCode === undefined ? {} : { causeCode: s.causeCode }),
      ...(s.cause === undefined ? {} : { cause: s.cause }),
      ...(s.remedy === undefined ? {} : { remedy: s.remedy }),
      ...(s.retryAt === undefined ? {} : { retryAt: new Date(s.retryAt).toISOString() }),
      ...(s.reaped ? { reaped: true as const } : {}),
      tools: s.tools,
      warnings: s.warnings,
      ...(s.pid === undefined ? {} : { pid: s.pid }),
      source: c.config.source.kind === 'global' ? 'global' : c.config.source.file,
      shared: w.manager.isShared(c.name),
      ...(s.review ? { review: s.review } : {}),
    };
  });
}
