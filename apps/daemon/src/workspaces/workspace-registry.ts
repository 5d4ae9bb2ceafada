import fs from 'node:fs';
import path from 'node:path';
import {
  BlitzError,
  formatProblem,
  type CatalogCache,
  type PinStore,
  Manager,
  ServerPool,
  type ClientHooks,
  type Connector,
  type ManagerEvent,
  type ManagerOptions,
  type PoolEvent,
  type ResolvedServer,
} from '@blitz/core';
import type { Clock } from '@blitz/clock';
import type { SettingsSource } from '../settings/settings-source.js';
import { Workspace, workspaceId } from './workspace.js';

export interface RegistryDeps {
  source: SettingsSource;
  connector: Connector;
  clock: Clock;
  onEvent(workspace: Workspace, event: ManagerEvent): void;
  onOpened?(workspace: Workspace): void;
  /** A workspace is no longer open (it is not in `list()`) and its servers are being stopped. */
  onClosing?(workspace: Workspace): void;
  onClosed?(workspace: Workspace): void;
  /** A workspace's project problems changed (a project file not read, entries skipped); each new list once. */
  onProblems?(workspace: Workspace, problems: readonly string[]): void;
  /**
   * Every set of servers a workspace is about to run, expanded: their secrets must be known to
   * the redactor first. Each set replaces the workspace's last one (a removed server's values
   * are dropped); a closed workspace's is empty.
   */
  onResolved?(workspace: Workspace, servers: readonly ResolvedServer[]): void;
  /** What the hub endpoint sets on every manager (built-in tool names, how tools in review are offered). */
  managerOptions?(root: string): Pick<ManagerOptions, 'builtIns' | 'pinReview'>;
  /** The catalog cache, while `[hub] catalog_cache` is on: each workspace's manager answers cold starts from it. */
  catalogCache?(): CatalogCache | undefined;
  /** The daemon's pinned tool definitions (issue 31). */
  pins?(): PinStore | undefined;
  /** Where shared servers (`share = true`) run: the user's home. */
  home: string;
  /** The hub's hooks on the connections of servers run for a root (a workspace's, or the home for shared ones). */
  clientHooks?(root: string): ClientHooks;
  /** A server's own event (state, failure, notice), once, with the workspaces using it. */
  onServerEvent?(event: PoolEvent): void;
}

/** Every open workspace of the daemon, by canonical root. */
export class WorkspaceRegistry {
  readonly #deps: RegistryDeps;
  readonly #open = new Map<string, Workspace>();
  readonly #opening = new Map<string, Promise<Workspace>>();
  #pool: ServerPool | undefined;

  constructor(deps: RegistryDeps) {
    this.#deps = deps;
  }

  /** Every server connection of every workspace, a shared one once; made at first use, once the hub is there to set its hooks. */
  get pool(): ServerPool {
    this.#pool ??= new ServerPool({
      connector: this.#deps.connector,
      clock: this.#deps.clock,
      home: this.#deps.home,
      hooks: (root) => this.#deps.clientHooks?.(root) ?? {},
      idleTimeoutSeconds: () => this.#deps.source.settings.hub.idleTimeoutSeconds,
      onEvent: (event) => this.#deps.onServerEvent?.(event),
    });
    return this.#pool;
  }

  list(): Workspace[] {
    return [...this.#open.values()];
  }

  get(id: string): Workspace | undefined {
    return this.list().find((w) => w.id === id);
  }

  /** Opens the workspace for a directory, or finds it open; opening twice at once opens once. */
  async open(dir: string): Promise<Workspace> {
    const root = canonicalRoot(dir);
    const open = this.#open.get(root);
    if (open) return open;
    const pending = this.#opening.get(root);
    if (pending) return pending;
    const opening = this.#create(root).finally(() => this.#opening.delete(root));
    this.#opening.set(root, opening);
    return opening;
  }

  /** Opens a workspace for a client, which keeps it open until `release`. */
  async acquire(dir: string): Promise<Workspace> {
    const workspace = await this.open(dir);
    workspace.attach();
    return workspace;
  }

  release(workspace: Workspace): void {
    workspace.detach(this.#deps.clock, this.#idleMs(), () => void this.close(workspace));
  }

  /** Applies the settings in force to every open workspace (MCP-45). */
  async applySettings(): Promise<void> {
    await Promise.all(this.list().map((w) => this.#update(w)));
  }

  async close(workspace: Workspace): Promise<void> {
    if (this.#open.get(workspace.root) !== workspace) return;
    this.#open.delete(workspace.root);
    this.#deps.onClosing?.(workspace);
    await workspace.close();
    this.#deps.onResolved?.(workspace, []);
    this.#deps.onClosed?.(workspace);
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.list().map((w) => this.close(w)));
  }

  /** Files whose change may change a workspace's servers: its project config files. */
  watchedFiles(): string[] {
    return this.list().flatMap((w) => [path.join(w.root, '.mcp.json'), path.join(w.root, '.agents', 'mcp_config.json')]);
  }

  async #create(root: string): Promise<Workspace> {
    const workspace: Workspace = new Workspace(
      root,
      new Manager({
        workspace: root,
        connector: this.#deps.connector,
        clock: this.#deps.clock,
        ...this.#deps.managerOptions?.(root),
        pool: this.pool,
        ...(this.#deps.catalogCache ? { catalogCache: this.#deps.catalogCache } : {}),
        ...(this.#deps.pins ? { pins: this.#deps.pins } : {}),
        settingLine: (config, field) => this.#deps.source.serverLine(config, field),
        onEvent: (event) => this.#deps.onEvent(workspace, event),
      }),
    );
    await this.#update(workspace);
    this.#open.set(root, workspace);
    this.#deps.onOpened?.(workspace);
    // Opened without a client (through the API): it closes after the idle period unless one comes.
    workspace.startIdle(this.#deps.clock, this.#idleMs(), () => {
      if (workspace.clients === 0) void this.close(workspace);
    });
    return workspace;
  }

  async #update(workspace: Workspace): Promise<void> {
    const set = this.#deps.source.serversFor(workspace.root);
    this.#deps.onResolved?.(workspace, set.servers);
    workspace.trusted = set.trusted;
    const problems = set.projectProblems.map(formatProblem);
    if (problems.join('\n') !== workspace.problems.join('\n')) {
      workspace.problems = problems;
      this.#deps.onProblems?.(workspace, problems);
    }
    const { changed } = await workspace.manager.update({ servers: set.servers });
    // Connected clients learn of a server switched on or added only once its tools are known.
    if (workspace.clients > 0) workspace.manager.startInBackground(changed);
  }

  #idleMs(): number {
    return this.#deps.source.settings.daemon.workspaceIdleMinutes * 60_000;
  }
}

export function canonicalRoot(dir: string): string {
  const resolved = path.resolve(dir);
  let real: string;
  try {
    real = fs.realpathSync.native(resolved);
  } catch {
    throw new BlitzError('INVALID_ARGUMENT', `cannot open a workspace for ${resolved}: no such directory`, {
      reason: 'WORKSPACE_NOT_A_DIRECTORY',
    });
  }
  if (!fs.statSync(real).isDirectory()) {
    throw new BlitzError('INVALID_ARGUMENT', `cannot open a workspace for ${resolved}: not a directory`, {
      reason: 'WORKSPACE_NOT_A_DIRECTORY',
    });
  }
  return real;
}

export { workspaceId };
