import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  blitzHome,
  blitzPaths,
  CatalogCache,
  erasIn,
  createConnector,
  PinStore,
  ServerSignIns,
  emptySettings,
  formatProblem,
  Redactor,
  writeTextAtomic,
  type BlitzPaths,
  type Connector,
  sandboxWarning,
} from '@blitz/core';
import { daemonSocketPath, daemonStatePath, type DaemonState } from '@blitz/client';
import { systemClock, type Clock } from '@blitz/clock';
import { controlApi } from './http/control-api.js';
import { DaemonServer } from './http/daemon-server.js';
import type { JsonBytes } from './http/json-bytes.js';
import { askPortHolder, portInUse } from './port-holder.js';
import { daemonLaunches } from './blitz-launch.js';
import { HubEndpoint } from './hub/hub-endpoint.js';
import { ToolUse } from './hub/tool-use.js';
import type { Router } from './http/router.js';
import { AuditLog } from './audit/audit-log.js';
import { ChildRecord } from './child-record.js';
import { PageSignIns } from './page-sign-ins.js';
import { CredentialStoreCache } from './credential-store-cache.js';
import { acquireInstanceLock } from './instance-lock.js';
import { loadOrCreateToken } from './daemon-token.js';
import { Logger, ServerLogBook } from './log/index.js';
import { NoticeFeed } from './notices/index.js';
import { StatusCache } from './status-cache.js';
import { SettingsSource } from './settings/settings-source.js';
import { PageSessions } from './settings-page/page-sessions.js';
import { testServer } from './settings-page/test-server.js';
import { Secrets } from './secrets.js';
import { ServerEvents } from './server-events.js';
import { daemonStatus } from './status.js';
import { FileWatcher } from './watch/index.js';
import { WatchedFiles } from './watched-files.js';
import { canonicalRoot, WorkspaceRegistry } from './workspaces/workspace-registry.js';

export interface DaemonOptions {
  home: string;
  version: string;
  /** Overrides `[daemon] port`; 0 picks a free port. */
  port?: number;
  clock?: Clock;
  env?: Readonly<Record<string, string | undefined>>;
  /** Also write the log to stderr (foreground mode). */
  mirrorLog?: boolean;
  /** Grace periods of the stdio close sequence (tests shorten them). */
  graceMs?: number;
  /** The built settings page (default: `@blitz/settings`'s dist). */
  settingsPageDir?: string;
  /**
   * The measured fast lanes of `tools/call` (docs/architecture.md "The fast lane"); default on.
   * Off (`BLITZ_FAST_LANES=off`): every call takes the SDK's own path, to compare or to rule them out.
   */
  fastLanes?: boolean;
}

/**
 * The daemon: hosts workspaces, serves the control API on loopback, follows settings.toml
 * and project files as they change (MCP-45), and keeps the notice feed the tray reads.
 */
export class Daemon {
  readonly paths: BlitzPaths;
  /** Kept across restarts in `state/token`, so clients configured by URL keep working. */
  readonly token: string;
  readonly log: Logger;
  readonly notices = new NoticeFeed();
  /** `GET /v1/status` between changes of what it is made of (status-cache.ts says which). */
  readonly #statusCache: StatusCache;
  readonly source: SettingsSource;
  readonly registry: WorkspaceRegistry;
  readonly hub: HubEndpoint;
  readonly #opts: DaemonOptions;
  readonly #clock: Clock;
  readonly #redactor = new Redactor();
  /** The missing sandbox was told (a notice): once per daemon. */
  #noSandboxTold = false;
  #settingsApplies = 0;
  readonly #secrets: Secrets;
  /** OAuth sign-ins of HTTP servers (MCP-38), shared by every workspace's connections. */
  readonly #signIns: ServerSignIns;
  /** Each server's last lines, stderr and the daemon's own, for the page's logs view (issue 29.9). */
  readonly #serverLogs: ServerLogBook;
  /** Sign-ins the settings page started (issue 29.7). */
  readonly #pageSignIns: PageSignIns;
  readonly #credentials: CredentialStoreCache;
  readonly #server: DaemonServer;
  readonly #watcher: FileWatcher;
  readonly #watched: WatchedFiles;
  readonly #lock: { release(): void };
  readonly #children: ChildRecord;
  /** The notice, log line and child record of each server event (server-events.ts). */
  readonly #events: ServerEvents;
  /**
   * Each server's last listing (state/catalog-cache.json): a cold start answers from it while
   * servers start. Read when first wanted while `[hub] catalog_cache` is on, so with it off the
   * file is neither read nor written (#catalogCacheInUse), even once read: turned off while the
   * daemon runs, the file stays as it was.
   */
  #catalogCache: CatalogCache | undefined;
  readonly #connector: Connector;
  /** Every call through the hub, a line each (logs/audit.jsonl, issue 31). */
  readonly audit: AuditLog;
  /** Each server's pinned tool definitions (state/pins.jsonl, issue 31), read at start. */
  readonly pins: PinStore;
  /** The settings page's one-time codes and cookie sessions. */
  readonly #pageSessions: PageSessions;
  readonly #toolUse: ToolUse;
  #stopping: Promise<void> | undefined;
  #resolveStopped!: () => void;
  /** Settles once the daemon has stopped, whoever asked. */
  readonly stopped = new Promise<void>((resolve) => (this.#resolveStopped = resolve));

  private constructor(opts: DaemonOptions) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.paths = blitzPaths(opts.home);
    this.#lock = acquireInstanceLock(opts.home);
    this.token = loadOrCreateToken(path.join(this.paths.stateDir, 'token'));
    this.#children = new ChildRecord(path.join(this.paths.stateDir, 'children.json'));
    this.#serverLogs = new ServerLogBook({ now: () => this.#clock.now(), redact: (text) => this.#redactor.redact(text) });
    this.log = new Logger({
      dir: this.paths.logs,
      mirror: opts.mirrorLog ?? false,
      redactor: this.#redactor,
      onRecord: (record) => this.#serverLogs.record(record),
    });
    this.#secrets = new Secrets(this.#redactor, this.log);
    this.source = new SettingsSource(this.paths, emptySettings(), opts.env ?? process.env);
    this.#credentials = new CredentialStoreCache({
      paths: this.paths,
      clock: this.#clock,
      env: (opts.env ?? process.env) as NodeJS.ProcessEnv,
      onOpened: (store) => this.log.info('sign-ins are kept in ' + store.describe()),
    });
    this.#signIns = new ServerSignIns({
      store: () => this.#credentials.open(),
      clock: this.#clock,
      onSecrets: (values) => this.#secrets.addValues(values),
      onForgotten: (server, why) =>
        this.log.warn(`forgot the sign-in of MCP server ${server}: ${why}; run blitz mcp login ${server}`, { server }),
      warn: (message) => this.log.warn(message),
    });
    this.#pageSignIns = new PageSignIns({
      store: () => this.#credentials.open(),
      clock: this.#clock,
      env: (opts.env ?? process.env) as NodeJS.ProcessEnv,
      clientMetadataUrl: () => this.source.settings.oauth.clientMetadataUrl,
      changed: (server) => this.#credentialsChanged(server),
      info: (message, fields) => this.log.info(message, fields),
    });
    this.#pageSessions = new PageSessions(this.#clock, {
      file: path.join(this.paths.stateDir, 'page-sessions.json'),
      warn: (message) => this.log.warn(message),
    });
    this.#connector = createConnector({
      blitzHome: this.paths.home,
      clock: this.#clock,
      clientVersion: opts.version,
      warn: (message) => this.log.warn(message),
      authFetch: (config) => this.#signIns.fetchFor(config),
      ...(opts.env ? { parentEnv: opts.env } : {}),
      ...(opts.graceMs === undefined ? {} : { graceMs: opts.graceMs }),
      maxMessageBytes: () => this.source.settings.hub.maxResultMb * 1024 * 1024,
      onDescendants: (leader, descendants) => this.#children.setDescendants(leader, descendants),
      ...(opts.fastLanes === false ? { directCalls: false } : {}),
      onStderr: (server, chunk) => this.#serverLogs.stderr(server, chunk.toString('utf8')),
      // Which era each server speaks is found once and kept with its catalog (issue 28.2).
      eras: erasIn(() => this.#catalogCacheInUse()),
    });
    this.registry = new WorkspaceRegistry({
      source: this.source,
      clock: this.#clock,
      connector: this.#connector,
      onEvent: (workspace, event) => this.#events.fromManager(workspace, event),
      managerOptions: (root) => this.hub.managerOptions(root),
      home: homeRoot(),
      catalogCache: () => this.#catalogCacheInUse(),
      pins: () => this.pins,
      clientHooks: (root) => this.hub.clientHooks(root),
      onServerEvent: (event) => this.#events.fromPool(event),
      onResolved: (workspace, servers) =>
        this.#secrets.setServers(
          `workspace ${workspace.root}`,
          servers.map((s) => s.config),
        ),
      onProblems: (workspace, problems) => {
        for (const problem of problems) this.log.warn(`project problem: ${problem}`, { workspace: workspace.root });
      },
      // Its project files join the watched ones, so their edits apply at once (MCP-45).
      onOpened: () => {
        this.#statusCache.changed();
        this.#watchFiles();
      },
      // The status lists the open workspaces: one closing is gone from it before its own
      // copies have stopped (the shared ones it used go on without it).
      onClosing: () => this.#statusCache.changed(),
      onClosed: (workspace) => {
        this.#statusCache.changed();
        this.log.info('workspace closed', { workspace: workspace.root });
        this.#watchFiles();
      },
    });
    this.#statusCache = new StatusCache(
      (after) =>
        daemonStatus({ version: opts.version, settings: this.source, workspaces: this.registry.list(), notices: this.notices, after }),
      this.#redactor,
    );
    this.pins = new PinStore({
      file: this.paths.pins,
      clock: this.#clock,
      // A pin file that cannot be read or written is the user's to hear of, not only the log's.
      warn: (message) => this.#ownNotice('review', message),
    });
    this.#toolUse = new ToolUse({
      file: path.join(this.paths.stateDir, 'tool-use.json'),
      warn: (message) => this.log.warn(message),
      clock: this.#clock,
    });
    this.audit = new AuditLog({
      file: this.paths.audit,
      maxBytes: () => this.source.settings.hub.auditMaxMb * 1024 * 1024,
      keepArguments: () => this.source.settings.hub.auditArguments,
      redactor: this.#redactor,
      onStopped: (message) => this.#ownNotice('audit', message),
    });
    this.hub = new HubEndpoint({
      registry: this.registry,
      clock: this.#clock,
      settings: () => this.source.settings,
      version: opts.version,
      log: this.log,
      redactor: this.#redactor,
      toolUse: this.#toolUse,
      audit: this.audit,
      ...(opts.fastLanes === false ? { fastLane: false } : {}),
    });
    this.#watcher = new FileWatcher({ clock: this.#clock });
    this.#watcher.onChange((file) => void this.#onFileChanged(file));
    this.#watched = new WatchedFiles(this.#watcher);
    this.#events = new ServerEvents({
      statusCache: this.#statusCache,
      notices: this.notices,
      log: this.log,
      hub: this.hub,
      children: this.#children,
      clock: this.#clock,
    });
    this.#server = new DaemonServer({
      token: this.token,
      api: this.#controlApi(),
      hub: this.hub,
      pageSessions: this.#pageSessions,
      settingsPageDir: opts.settingsPageDir,
      redactor: this.#redactor,
      log: this.log,
    });
  }

  /** Starts a daemon for a BLITZ_HOME; throws `AlreadyRunning` when one runs there. */
  static async start(opts: DaemonOptions): Promise<Daemon> {
    const daemon = new Daemon(opts);
    try {
      await daemon.#start();
    } catch (err) {
      await daemon.stop();
      throw err;
    }
    return daemon;
  }

  get port(): number {
    return this.#server.port;
  }

  get url(): string {
    return this.#server.url;
  }

  /**
   * The control API answered in-process, as `fetch` would reach it (a `Response`), like Hono's
   * `app.request()`: tests give it to a `BlitzClient` as its `fetch`.
   */
  request(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    return this.#server.request(input, init);
  }

  async #start(): Promise<void> {
    const reaped = this.#children.reapLeftovers();
    // Watched before the first read: an edit made while the daemon starts is heard, never taken
    // as the baseline of a watch set up after the daemon said it was ready.
    this.#watchFiles();
    this.#loadSettings();
    if (reaped.length > 0) this.log.warn('ended MCP server processes a killed daemon left running', { pids: reaped });
    const port = this.#opts.port ?? this.source.settings.daemon.port;
    await this.#server.listen(port).catch(async (err: NodeJS.ErrnoException) => {
      throw err.code === 'EADDRINUSE' ? portInUse(port, this.paths, await askPortHolder(port, { clock: this.#clock })) : err;
    });
    const socket = await this.#listenLocal();
    const state: DaemonState = {
      pid: process.pid,
      port: this.port,
      token: this.token,
      version: this.#opts.version,
      startedAt: new Date(this.#clock.now()).toISOString(),
      ...(socket ? { socket } : {}),
    };
    await writeTextAtomic(daemonStatePath(this.paths.home), `${JSON.stringify(state, null, 2)}\n`);
    fs.chmodSync(daemonStatePath(this.paths.home), 0o600);
    // Started, however (blitz daemon start, the tray, login): a stop of before no longer holds clients back.
    fs.rmSync(this.paths.daemonStopped, { force: true });
    this.log.info('daemon started', { pid: process.pid, port: this.port, home: this.paths.home, version: this.#opts.version });
    if (this.#opts.fastLanes === false) this.log.info('the fast lanes are off: every tools/call takes the SDK path (BLITZ_FAST_LANES=off)');
  }

  /** The local socket `blitz connect` prefers, when the platform and the home's path allow one; the port serves without it. */
  async #listenLocal(): Promise<string | undefined> {
    const socket = daemonSocketPath(this.paths.home);
    if (socket === undefined) return undefined;
    try {
      await this.#server.listenLocal(socket);
      return socket;
    } catch (err) {
      this.log.warn('not listening on a local socket; clients connect over the loopback port', { socket, error: (err as Error).message });
      return undefined;
    }
  }

  /** What a client's `blitz connect` entry needs in its env, as blitz clients connect writes it: BLITZ_HOME only where the daemon's is not the default. */
  #connectEnv(): Record<string, string> {
    const { BLITZ_HOME: _set, ...rest } = this.#opts.env ?? process.env;
    return this.paths.home === blitzHome(rest) ? {} : { BLITZ_HOME: this.paths.home };
  }

  /** The control API, over this daemon's parts. */
  #controlApi(): Router {
    return controlApi({
      settingsFile: this.paths.settings,
      registry: this.registry,
      status: (after) => this.status(after),
      identity: () => ({ service: 'blitz', pid: process.pid, home: this.paths.home, version: this.#opts.version }),
      environment: () => {
        const env = this.#opts.env ?? process.env;
        return { path: env.PATH ?? '', ...(env.PATHEXT ? { pathext: env.PATHEXT } : {}), platform: process.platform };
      },
      applySettings: () => this.reload(),
      writingSettings: (text) => this.#watcher.expect(this.paths.settings, text),
      credentialsChanged: (server) => this.#credentialsChanged(server),
      signIns: this.#pageSignIns,
      serverLogs: this.#serverLogs,
      connectEnv: () => this.#connectEnv(),
      launches: () => daemonLaunches(this.#opts.env ?? process.env, this.#connectEnv()),
      clientBackupDir: path.join(this.paths.stateDir, 'client-backups'),
      clientEnv: () => ({ ...(this.#opts.env ?? process.env) }),
      recentCalls: this.audit.recent,
      context: { hub: () => this.source.settings.hub, uses: () => this.#toolUse.snapshot() },
      permissions: () => this.source.settings.permissions,
      settingsCode: () => {
        const { code, expiresAt } = this.#pageSessions.issueCode();
        return { url: `${this.url}/settings/?code=${code}`, expiresAt: new Date(expiresAt).toISOString() };
      },
      testServer: (config) =>
        testServer(config, {
          connector: this.#connector,
          clock: this.#clock,
          env: this.#opts.env ?? process.env,
          workspace: this.paths.home,
          onResolved: (resolved) => this.#secrets.setServers('tested', [resolved.config]),
        }),
      // After the answer is on its way: stopping closes every connection, this one too.
      shutdown: () => void setImmediate(() => void this.stop()),
    });
  }

  /** Reads settings.toml again and applies it to every open workspace; bad settings change nothing. */
  async reload(): Promise<void> {
    if (!this.#loadSettings()) return;
    await this.registry.applySettings();
    this.#statusCache.changed();
    this.hub.settingsApplied();
  }

  /** What `GET /v1/status` answers (the tray's poll), serialised and masked. */
  status(after?: number): JsonBytes {
    return this.#statusCache.get(after);
  }

  /** How many status answers were built: tests see that an event which changes nothing in it rebuilds nothing. */
  get statusBuilds(): number {
    return this.#statusCache.builds;
  }

  /** How many times settings.toml was taken in (read, checked, applied where it changed): tests see one per edit, whoever made it. */
  get settingsApplies(): number {
    return this.#settingsApplies;
  }

  /** Closes every workspace (MCP-12), then the server; idempotent. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.log.info('daemon stopping');
      this.#watcher.close();
      const closed = this.#server.close();
      await this.hub.closeAll();
      this.#server.closeConnections();
      await this.registry.closeAll();
      // Writes only begin while the cache is on (#catalogCacheInUse); those under way finish here.
      await this.#catalogCache?.flush();
      await this.pins.flush();
      await this.#toolUse.flush();
      this.audit.close();
      await this.#pageSignIns.close();
      await this.#signIns.close();
      await closed;
      fs.rmSync(daemonStatePath(this.paths.home), { force: true });
      this.#lock.release();
      this.log.info('daemon stopped');
      this.log.close();
      this.#resolveStopped();
    })();
    return this.#stopping;
  }

  /** Loads settings.toml; returns whether the settings in force changed. */
  #loadSettings(): boolean {
    this.#settingsApplies++;
    const { applied, problems } = this.source.reload();
    this.#statusCache.changed();
    for (const p of problems) this.log[p.severity === 'error' ? 'error' : 'warn'](formatProblem(p));
    if (this.source.hasErrors()) this.log.error('settings not applied: the previous settings stay in force', { file: this.paths.settings });
    this.#secrets.setServers('settings', this.source.settings.servers);
    this.#tellNoSandbox();
    return applied;
  }

  /**
   * On Linux without a working bubblewrap every sandboxed stdio server fails to start: said
   * once, as a notice with this OS's fix, the first time settings hold such a server (issue 26.5).
   */
  #tellNoSandbox(): void {
    if (this.#noSandboxTold) return;
    const sandboxed = this.source.settings.servers
      .filter((s) => !s.disabled && s.sandbox && s.transport.kind === 'stdio')
      .map((s) => s.name);
    const warning = sandboxWarning(sandboxed, (this.#opts.env ?? process.env).PATH ?? '');
    if (warning === undefined) return;
    this.#noSandboxTold = true;
    this.#ownNotice('sandbox', `${warning} (every server with sandbox = true fails to start until then)`);
  }

  /** A notice of Blitz's own (its pin file, its audit log), naming no server: the log, the feed and the tray hear it. */
  #ownNotice(kind: 'review' | 'audit' | 'sandbox', message: string): void {
    this.log.warn(message);
    this.notices.push({ server: '', kind, message, time: this.#clock.now() });
    this.#statusCache.changed();
  }

  /** The catalog cache while `[hub] catalog_cache` is on, its file read the first time; undefined while it is off. */
  #catalogCacheInUse(): CatalogCache | undefined {
    if (!this.source.settings.hub.catalogCache) return undefined;
    return (this.#catalogCache ??= new CatalogCache({
      file: this.paths.catalogCache,
      clock: this.#clock,
      warn: (message) => this.log.warn(message),
    }));
  }

  /**
   * `blitz mcp login` or `logout` changed a server's sign-in: no cached token of it is used
   * again, its live connections close and forget a wanted sign-in, so the next request carries
   * the new sign-in or none; workspaces with clients reconnect it at once.
   */
  async #credentialsChanged(server: string): Promise<{ server: string; restarted: number }> {
    this.#credentials.forget();
    this.#signIns.invalidate(server);
    // What it listed signed in (or out) is not what it lists now: forgotten while the cache is
    // on. Off, the file is left as it is, read or not (a server that then needs a sign-in is
    // forgotten when it is next seen so with the cache on).
    this.#catalogCacheInUse()?.forget(server);
    const holding = this.registry.list().filter((w) => w.manager.connections().some((c) => c.name === server));
    await Promise.all(holding.map((w) => w.manager.restart(server)));
    // Where clients are connected it reconnects at once, so what they and `mcp list` see is the new sign-in's outcome (issue 26.2).
    await Promise.all(
      holding
        .filter((w) => w.clients > 0)
        .map((w) =>
          w.manager
            .connection(server)
            .tools()
            .catch(() => undefined),
        ),
    );
    this.log.info('sign-in changed', { server, restarted: holding.length });
    return { server, restarted: holding.length };
  }

  #watchFiles(): void {
    // trust.json too: `blitz trust` brings a project's servers in (or takes them out) at once.
    this.#watched.set([this.paths.settings, this.paths.trust, ...this.registry.watchedFiles()]);
  }

  async #onFileChanged(file: string): Promise<void> {
    this.log.info('file changed', { file });
    try {
      // reload() drops the status cache itself.
      if (file === this.paths.settings) await this.reload();
      else {
        await this.registry.applySettings();
        this.#statusCache.changed();
      }
    } catch (err) {
      this.log.error('applying settings failed', { error: (err as Error).message });
    }
  }
}

/** The user's home as a workspace root (where a client without `?workspace=` lands, and shared servers run). */
function homeRoot(): string {
  try {
    return canonicalRoot(os.homedir());
  } catch {
    return path.resolve(os.homedir());
  }
}
